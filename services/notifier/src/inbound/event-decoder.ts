import { AppError, validate } from '@school/http';
import { DeadLetterError, EVENT_SCHEMAS, isEventType, type DomainEvent, type IncomingMessage } from '@school/messaging';

export interface ReceivedEvent {
  messageId: string;
  event: DomainEvent;
}

/** Ids the relay sets are UUIDs; anything printable and short enough to be a key is accepted. */
const MESSAGE_ID = /^[\w.:-]{1,200}$/;

/**
 * A broker message is checked like an HTTP body: known type (routing key), a message id to
 * deduplicate on, JSON, and a payload valid for its type (the same zod schema the producer used,
 * through `validate`). Anything else can never succeed: DeadLetterError with the reason.
 */
export function decodeEvent(message: IncomingMessage): ReceivedEvent {
  const { messageId, routingKey: type } = message;
  if (!isEventType(type)) throw new DeadLetterError(`unknown event type "${type.slice(0, 100)}"`);
  if (!messageId || !MESSAGE_ID.test(messageId)) throw new DeadLetterError('missing or malformed messageId');
  let body: unknown;
  try {
    body = JSON.parse(message.body.toString('utf8'));
  } catch {
    throw new DeadLetterError('body is not JSON');
  }
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
