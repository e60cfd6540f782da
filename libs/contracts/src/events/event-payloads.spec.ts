import { ALL_EVENT_TYPES, EVENT_SCHEMAS, EVENT_TYPES, isEventType } from '../index.js';

describe('event catalogue', () => {
  it('has one payload schema per event type, named <context>.<snake_case>', () => {
    expect(Object.keys(EVENT_SCHEMAS).sort()).toEqual([...ALL_EVENT_TYPES].sort());
    for (const type of ALL_EVENT_TYPES) expect(type).toMatch(/^[a-z]+\.[a-z_]+$/);
    expect(EVENT_TYPES.feedbackSubmitted).toBe('feedback.submitted');
    expect(isEventType('feedback.submitted')).toBe(true);
    expect(isEventType('feedback.deleted')).toBe(false);
  });

  it('accepts a guest and a customer feedback and refuses unknown fields', () => {
    const base = { id: 'f1', category: 'bug_report', subject: null, message: 'Broken', createdAt: '2026-11-22T10:00:00.000Z' };
    const schema = EVENT_SCHEMAS['feedback.submitted'];
    expect(schema.safeParse({ ...base, from: { type: 'customer', userId: 'u1' } }).success).toBe(true);
    expect(schema.safeParse({ ...base, from: { type: 'guest', name: 'Ann', email: 'ann@example.com', phone: null } }).success).toBe(true);
    expect(schema.safeParse({ ...base, from: { type: 'guest', name: 'Ann', email: 'nope', phone: null } }).success).toBe(false);
    expect(schema.safeParse({ ...base, from: { type: 'customer', userId: 'u1' }, extra: 1 }).success).toBe(false);
  });

  it('requires a six-digit code and an E.164 phone where a code is sent', () => {
    const schema = EVENT_SCHEMAS['identity.phone_verification_requested'];
    const ok = { userId: 'u1', phone: '+9779812345678', otp: '123456', expiresAt: '2026-11-22T10:15:00Z' };
    expect(schema.safeParse(ok).success).toBe(true);
    expect(schema.safeParse({ ...ok, otp: '12345' }).success).toBe(false);
    expect(schema.safeParse({ ...ok, phone: '9812345678' }).success).toBe(false);
  });

  it('sends a reset by email with its link, by SMS with the code only', () => {
    const schema = EVENT_SCHEMAS['identity.password_reset_requested'];
    const base = { userId: 'u1', name: null, otp: '654321', expiresAt: '2026-11-22T10:15:00Z' };
    expect(schema.safeParse({ ...base, delivery: { channel: 'email', email: 'a@example.com', resetUrl: 'http://localhost:3000/reset?token=x' } }).success).toBe(true);
    expect(schema.safeParse({ ...base, delivery: { channel: 'sms', phone: '+9779812345678' } }).success).toBe(true);
    expect(schema.safeParse({ ...base, delivery: { channel: 'email', email: 'a@example.com', resetUrl: 'javascript:alert(1)' } }).success).toBe(false);
  });

  it('carries a committed address (or none) with its version and claim', () => {
    const schema = EVENT_SCHEMAS['identity.user_address_changed'];
    const address = { provinceId: 1, districtId: 2, municipalityId: 3 };
    const claimId = '0190b6a4-0000-7000-8000-000000000000';
    expect(schema.safeParse({ userId: 'u1', address, version: 1, claimId }).success).toBe(true);
    expect(schema.safeParse({ userId: 'u1', address: null, version: 2, claimId: null }).success).toBe(true);
    expect(schema.safeParse({ userId: 'u1', address, version: 0, claimId }).success).toBe(false);
    expect(schema.safeParse({ userId: 'u1', address: { ...address, ward: 4 }, version: 1, claimId }).success).toBe(false);
  });
});
