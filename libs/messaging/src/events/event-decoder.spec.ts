import { DeadLetterError } from '../amqp/event-consumer.js';
import { decodeEvent } from './event-decoder.js';

const TYPE = 'identity.phone_verification_requested';
const payload = { userId: 'u1', phone: '+9779812345678', otp: '123456', expiresAt: '2026-11-22T10:15:00Z' };

describe('decodeEvent', () => {
  it('returns the typed event of a valid message', () => {
    expect(decodeEvent(TYPE, payload, 'm-1')).toEqual({ messageId: 'm-1', event: { type: TYPE, payload } });
  });

  it.each([
    ['no message id', payload, undefined, /messageId/],
    ['a malformed message id', payload, 'a b', /messageId/],
    ['a body that is no object', 'just a string', 'm-1', /invalid identity.phone_verification_requested payload/],
    ['an invalid payload', { ...payload, otp: '12' }, 'm-1', /invalid identity.phone_verification_requested payload \(otp: /],
    ['an undeclared field', { ...payload, extra: 1 }, 'm-1', /extra: Unknown field/],
  ])('dead-letters %s with the reason', (_case, body, messageId, reason) => {
    expect(() => decodeEvent(TYPE, body, messageId)).toThrow(DeadLetterError);
    expect(() => decodeEvent(TYPE, body, messageId)).toThrow(reason);
  });
});
