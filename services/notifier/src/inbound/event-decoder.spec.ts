import { DeadLetterError, type IncomingMessage } from '@school/messaging';
import { decodeEvent } from './event-decoder.js';

const payload = { userId: 'u1', phone: '+9779812345678', otp: '123456', expiresAt: '2026-11-22T10:15:00Z' };

function message(overrides: Partial<IncomingMessage> = {}): IncomingMessage {
  return {
    messageId: 'm-1',
    routingKey: 'identity.phone_verification_requested',
    body: Buffer.from(JSON.stringify(payload)),
    headers: {},
    deliveryCount: 1,
    ...overrides,
  };
}

describe('decodeEvent', () => {
  it('returns the typed event of a valid message', () => {
    expect(decodeEvent(message())).toEqual({ messageId: 'm-1', event: { type: 'identity.phone_verification_requested', payload } });
  });

  it.each([
    ['an unknown type', message({ routingKey: 'notifier.events' }), /unknown event type "notifier.events"/],
    ['no message id', message({ messageId: undefined }), /messageId/],
    ['a malformed message id', message({ messageId: 'a b' }), /messageId/],
    ['a body that is not JSON', message({ body: Buffer.from('{oops') }), /not JSON/],
    ['an invalid payload', message({ body: Buffer.from(JSON.stringify({ ...payload, otp: '12' })) }), /invalid identity.phone_verification_requested payload \(otp: /],
    ['an undeclared field', message({ body: Buffer.from(JSON.stringify({ ...payload, extra: 1 })) }), /extra: Unknown field/],
  ])('dead-letters %s with the reason', (_case, input, reason) => {
    expect(() => decodeEvent(input)).toThrow(DeadLetterError);
    expect(() => decodeEvent(input)).toThrow(reason);
  });
});
