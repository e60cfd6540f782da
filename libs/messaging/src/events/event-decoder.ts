import { AppError, validate } from '@school/http';
import { DeadLetterError } from '../amqp/event-consumer.js';
import { EVENT_SCHEMAS, type DomainEvent, type EventType } from '@school/contracts';

export interface ReceivedEvent {
  messageId: string;
  event: DomainEvent;
}

/** Ids the relay sets are UUIDs; anything printable and short enough to be a key is accepted. */
const MESSAGE_ID = /^[\w.:-]{1,200}$/;

/**
 * An event is checked like an HTTP body (the transport has already matched its type to a handler
 * and parsed the JSON): a message id to deduplicate on, and a payload valid for its type (the same
 * zod schema the producer used, through `validate`). Anything else can never succeed:
 * DeadLetterError with the reason.
 */
export function decodeEvent(type: EventType, body: unknown, messageId: string | undefined): ReceivedEvent {
  if (!messageId || !MESSAGE_ID.test(messageId)) throw new DeadLetterError('missing or malformed messageId');
  try {
    const payload = validate(EVENT_SCHEMAS[type], body);
    return { messageId, event: { type, payload } as DomainEvent };
  } catch (error) {
    if (error instanceof AppError) {
      const fields = (error.errors ?? []).map((field) => `${field.field}: ${field.message}`).join('; ');
      throw new DeadLetterError(`invalid ${type} payload (${fields})`);
    }
    throw error;
  }
}
