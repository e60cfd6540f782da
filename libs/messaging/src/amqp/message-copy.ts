import type { MessageProperties, Options } from 'amqplib';

/**
 * The properties of a copy of a delivered message published again (a retry, a replay from the
 * dead-letter queue): persistent, the same content type and encoding, message id, correlation id,
 * type and timestamp, and the headers the caller chose (the broker's own never carry over).
 */
export function copyProperties(properties: MessageProperties, headers: Record<string, unknown>): Options.Publish {
  return {
    persistent: true,
    ...(properties.contentType ? { contentType: properties.contentType as string } : {}),
    ...(properties.contentEncoding ? { contentEncoding: properties.contentEncoding as string } : {}),
    ...(properties.messageId ? { messageId: properties.messageId as string } : {}),
    ...(properties.correlationId ? { correlationId: properties.correlationId as string } : {}),
    ...(properties.type ? { type: properties.type as string } : {}),
    ...(properties.timestamp ? { timestamp: properties.timestamp as number } : {}),
    headers,
  };
}
