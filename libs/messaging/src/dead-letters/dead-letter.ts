import type { Message, Options } from 'amqplib';
import { BROKER_HEADERS, RETRY_HEADERS } from '../amqp/event-consumer.js';
import { copyProperties } from '../amqp/message-copy.js';

/** What an operator needs to know about one parked message. */
export interface DeadLetter {
  queue: string;
  messageId: string | null;
  /** The routing key (event type) it was first published with: where a replay sends it. */
  routingKey: string;
  /** The AMQP `type` property (the event type, as the relay sets it). */
  type: string | null;
  /** The broker's reason for the last dead-lettering: `rejected` (handler or unknown key), `delivery_limit`, `expired`. */
  reason: string | null;
  /** The queue it was dead-lettered from. */
  from: string | null;
  /** When it was dead-lettered (ISO 8601), from the broker's x-death record. */
  deadLetteredAt: string | null;
  retryCount: number;
  /** The last handler error, when it failed through the retry queues. */
  lastError: string | null;
  bytes: number;
}

interface DeathRecord {
  reason?: unknown;
  queue?: unknown;
  time?: unknown;
  'routing-keys'?: unknown;
}

export function describeDeadLetter(queue: string, message: Message): DeadLetter {
  const headers = headersOf(message);
  const death = latestDeath(headers);
  const retryCount = Number(headers[RETRY_HEADERS.count] ?? 0);
  const lastError = headers[RETRY_HEADERS.lastError];
  return {
    queue,
    messageId: stringOrNull(message.properties.messageId),
    routingKey: originalRoutingKey(message),
    type: stringOrNull(message.properties.type),
    reason: stringOrNull(death?.reason) ?? stringOrNull(headers['x-last-death-reason']),
    from: stringOrNull(death?.queue) ?? stringOrNull(headers['x-last-death-queue']),
    deadLetteredAt: timeOf(death?.time),
    retryCount: Number.isInteger(retryCount) && retryCount > 0 ? retryCount : 0,
    lastError: typeof lastError === 'string' ? lastError : Buffer.isBuffer(lastError) ? lastError.toString() : null,
    bytes: message.content.length,
  };
}

/**
 * The routing key the message was first published with. A message that went through the retry
 * queues carries it in a header (the broker's x-death then names the work queue); one rejected on
 * its first delivery has it in x-death; the relay's `type` property is the last resort.
 */
export function originalRoutingKey(message: Message): string {
  const headers = headersOf(message);
  const fromRetry = stringOrNull(headers[RETRY_HEADERS.routingKey]);
  if (fromRetry) return fromRetry;
  const keys = latestDeath(headers)?.['routing-keys'];
  const fromDeath = Array.isArray(keys) ? stringOrNull(keys[0]) : null;
  return fromDeath ?? stringOrNull(message.properties.type) ?? message.fields.routingKey;
}

/** The replayed copy: same body and identity, as if published afresh (no broker or retry history). */
export function replayProperties(message: Message): Options.Publish {
  const retryHeaders = new Set<string>(Object.values(RETRY_HEADERS));
  const headers = Object.fromEntries(Object.entries(headersOf(message)).filter(([name]) => !BROKER_HEADERS.test(name) && !retryHeaders.has(name)));
  return { ...copyProperties(message.properties, headers), mandatory: true };
}

function headersOf(message: Message): Record<string, unknown> {
  return message.properties.headers ?? {};
}

/** The broker keeps x-death most recent first. */
function latestDeath(headers: Record<string, unknown>): DeathRecord | undefined {
  const deaths = headers['x-death'];
  return Array.isArray(deaths) && typeof deaths[0] === 'object' && deaths[0] !== null ? (deaths[0] as DeathRecord) : undefined;
}

function stringOrNull(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (Buffer.isBuffer(value) && value.length > 0) return value.toString();
  return null;
}

/** An AMQP timestamp in seconds, as amqplib decodes it (a number, or `{ value }` when typed). */
function timeOf(value: unknown): string | null {
  const seconds = typeof value === 'number' ? value : typeof value === 'object' && value !== null ? Number((value as { value?: unknown }).value) : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : null;
}
