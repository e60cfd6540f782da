import type { MessageProperties } from 'amqplib';
import { copyProperties } from './message-copy.js';

describe('copyProperties', () => {
  it('keeps what identifies the message, takes the given headers, and drops the rest', () => {
    const identifying = {
      contentType: 'application/json',
      contentEncoding: 'utf-8',
      messageId: 'm-1',
      correlationId: 'c-1',
      type: 'feedback.submitted',
      timestamp: 1_700_000_000,
    };
    const properties = {
      ...identifying,
      headers: { 'x-death': [], traceparent: 't' },
      expiration: '1000',
      replyTo: 'somewhere',
      priority: 3,
      deliveryMode: 1,
    } as unknown as MessageProperties;
    expect(copyProperties(properties, { kept: 1 })).toEqual({
      persistent: true,
      ...identifying,
      headers: { kept: 1 },
    });
  });

  it('leaves out properties the message did not have', () => {
    expect(copyProperties({ headers: {} } as unknown as MessageProperties, {})).toEqual({ persistent: true, headers: {} });
  });
});
