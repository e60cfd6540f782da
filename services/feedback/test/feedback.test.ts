import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { FEEDBACK_ROUTES } from '@school/contracts';
import { manifestMismatches } from '@school/service/testing';
import { type FeedbackUnderTest, startFeedback } from './support/feedback-app.js';

const CUSTOMER = '/api/mobile/feedback';
const GUEST = '/api/mobile/feedback/public';

const guestBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Asha Guest',
  email: 'asha@example.com',
  phone: '+9779812345678',
  category: 'bug_report',
  subject: 'The app crashes',
  message: 'When I open the timetable\nit closes.',
  ...overrides,
});

const customerBody = (overrides: Record<string, unknown> = {}) => ({ category: 'feature_request', subject: 'Dark mode', message: 'Please add a dark theme.', ...overrides });

const RECEIVED = { message: 'Thank you for your feedback', data: { status: 'received' }, errorCode: null };

// The rules behind the routes (honeypot, sender, subject none, the event in the same transaction) are test/medium/feedback.medium.test.ts.
describe('feedback routes (spec §4.3)', () => {
  let svc: FeedbackUnderTest;
  let customer: string;
  const customerId = randomUUID();

  beforeAll(async () => {
    svc = await startFeedback();
    customer = await svc.token('customer', customerId);
  });

  afterAll(async () => {
    await svc?.close();
  });

  beforeEach(async () => {
    await svc.clear();
  });

  it('serves each route of its manifest with one handler, declared and guarded as its entry says, and no handler outside it', () => {
    expect(manifestMismatches(svc.app, [FEEDBACK_ROUTES])).toEqual([]);
  });

  const rowCounts = async () => ({ rows: await svc.prisma.feedbackSubmission.count(), events: (await svc.outboxRows()).length });

  describe('guest route', () => {
    it('stores an accepted submission, trimmed, with its origin, and records feedback.submitted in the same transaction', async () => {
      const answer = await svc.request(
        GUEST,
        guestBody({ name: '  Asha Guest ', email: ' Asha@Example.com ', subject: '\tThe app crashes  ', message: '  line one\nline two  ', phone: '  ' }),
        { headers: { 'x-device-id': 'device-1', 'user-agent': 'jest-agent', ...svc.forwardedFrom('203.0.113.7') } },
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(RECEIVED);

      const [row] = await svc.prisma.feedbackSubmission.findMany();
      expect(row).toMatchObject({
        userId: null,
        name: 'Asha Guest',
        email: 'asha@example.com',
        phone: null,
        category: 'bug_report',
        subject: 'The app crashes',
        message: 'line one\nline two',
        ip: '203.0.113.7',
        deviceId: 'device-1',
        userAgent: 'jest-agent',
      });
      const events = await svc.outboxRows();
      expect(events).toEqual([
        {
          type: 'feedback.submitted',
          payload: {
            id: row!.id,
            category: 'bug_report',
            subject: 'The app crashes',
            message: 'line one\nline two',
            createdAt: row!.createdAt.toISOString(),
            from: { type: 'guest', name: 'Asha Guest', email: 'asha@example.com', phone: null },
          },
        },
      ]);
    });

    it('stores a direct caller, whatever X-Forwarded-For it writes, at its socket address: only the gateway signs the header', async () => {
      const answer = await svc.request(GUEST, guestBody(), { headers: { 'x-forwarded-for': '203.0.113.8' } });
      expect(answer.status).toBe(200);
      expect((await svc.prisma.feedbackSubmission.findMany()).map((row) => row.ip)).toEqual(['127.0.0.1']);
    });

    it('a filled honeypot writes no row and no outbox entry, and answers exactly as an accepted one', async () => {
      const accepted = await svc.request(GUEST, guestBody());
      await svc.clear();

      const discarded = await svc.request(GUEST, guestBody({ companyWebsite: ' https://spam.example ' }));
      expect(discarded.status).toBe(accepted.status);
      expect(discarded.raw).toBe(accepted.raw);
      expect(await rowCounts()).toEqual({ rows: 0, events: 0 });
    });

    it('answers the same for any sender email: no id, no echo', async () => {
      const one = await svc.request(GUEST, guestBody({ email: 'someone@example.com' }));
      const other = await svc.request(GUEST, guestBody({ email: 'nobody-at-all@example.org', name: 'Other' }));
      expect(one.raw).toBe(other.raw);
      expect(one.raw).not.toMatch(/someone|Asha/);
    });

    it.each([
      ['missing name', { name: undefined }, 'name'],
      ['blank name', { name: '   ' }, 'name'],
      ['name of 121 characters', { name: 'n'.repeat(121) }, 'name'],
      ['missing email', { email: undefined }, 'email'],
      ['invalid email', { email: 'not-an-email' }, 'email'],
      ['email over 255', { email: `${'a'.repeat(250)}@example.com` }, 'email'],
      ['phone over 40', { phone: '1'.repeat(41) }, 'phone'],
      ['invalid category', { category: 'complaint' }, 'category'],
      ['missing subject', { subject: undefined }, 'subject'],
      ['whitespace-only subject', { subject: ' \t ' }, 'subject'],
      ['subject of 256 characters', { subject: 's'.repeat(256) }, 'subject'],
      ['subject with a line break', { subject: 'one\ntwo' }, 'subject'],
      ['missing message', { message: undefined }, 'message'],
      ['whitespace-only message', { message: ' \n\t ' }, 'message'],
      ['message of 5001 characters', { message: 'm'.repeat(5001) }, 'message'],
      ['message with a control character', { message: 'bell\u0007' }, 'message'],
      ['message with a bidi override', { message: 'abc\u202Edef' }, 'message'],
      ['undeclared field', { userId: randomUUID() }, 'userId'],
      ['constructor', { constructor: 'x' }, 'constructor'],
      ['prototype', { prototype: 'x' }, 'prototype'],
    ])('%s is 400 VALIDATION_FAILED and stores nothing', async (_name, overrides, field) => {
      const answer = await svc.request(GUEST, guestBody(overrides));
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
      expect(answer.body.errors?.map((error) => error.field)).toContain(field);
      expect(await rowCounts()).toEqual({ rows: 0, events: 0 });
    });

    it('__proto__ is 400 VALIDATION_FAILED', async () => {
      const raw = JSON.stringify(guestBody()).replace(/^\{/, '{"__proto__":{"polluted":true},');
      const answer = await svc.request(GUEST, raw);
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
      expect(answer.body.errors?.map((error) => error.field)).toContain('__proto__');
      expect(await rowCounts()).toEqual({ rows: 0, events: 0 });
    });

    it('accepts the bounds exactly', async () => {
      const answer = await svc.request(
        GUEST,
        guestBody({ name: 'n'.repeat(120), email: `${'a'.repeat(243)}@example.com`, phone: '1'.repeat(40), subject: 's'.repeat(255), message: 'm'.repeat(5000) }),
      );
      expect(answer.status).toBe(200);
      expect(await rowCounts()).toEqual({ rows: 1, events: 1 });
    });

    it('the authenticated body sent to the guest route is 400', async () => {
      const answer = await svc.request(GUEST, customerBody(), { token: customer });
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    });
  });

  describe('authenticated route', () => {
    it('201 received; the account from the token is the sender', async () => {
      const answer = await svc.request(CUSTOMER, customerBody({ subject: '  Dark mode ', message: ' Please\nadd it ' }), {
        token: customer,
        headers: { 'x-device-id': 'phone-9' },
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual(RECEIVED);
      const [row] = await svc.prisma.feedbackSubmission.findMany();
      expect(row).toMatchObject({ userId: customerId, name: null, email: null, phone: null, subject: 'Dark mode', message: 'Please\nadd it', deviceId: 'phone-9' });
      const [event] = await svc.outboxRows();
      expect(event?.payload).toMatchObject({ id: row!.id, category: 'feature_request', subject: 'Dark mode', from: { type: 'customer', userId: customerId } });
    });

    it('any valid token may post (no permission gates it), staff included', async () => {
      expect((await svc.request(CUSTOMER, customerBody(), { token: await svc.token('staff') })).status).toBe(201);
    });

    it.each([
      ['no token', undefined],
      ['a malformed token', 'not-a-jwt'],
    ])('%s is 401 AUTH_UNAUTHENTICATED and stores nothing', async (_name, token) => {
      const answer = await svc.request(CUSTOMER, customerBody(), token ? { token } : {});
      expect(answer.status).toBe(401);
      expect(answer.body.errorCode).toBe('AUTH_UNAUTHENTICATED');
      expect(await rowCounts()).toEqual({ rows: 0, events: 0 });
    });

    it.each([
      ['invalid category', { category: 'complaint' }, 'category'],
      ['missing message', { message: undefined }, 'message'],
      ['whitespace-only message', { message: '  ' }, 'message'],
      ['message of 5001 characters', { message: 'm'.repeat(5001) }, 'message'],
      ['subject of 256 characters', { subject: 's'.repeat(256) }, 'subject'],
      ['subject with a line break', { subject: 'a\nb' }, 'subject'],
      ['a guest name', { name: 'Someone Else' }, 'name'],
      ['a guest email', { email: 'victim@example.com' }, 'email'],
      ['the honeypot', { companyWebsite: '' }, 'companyWebsite'],
      ['constructor', { constructor: 'x' }, 'constructor'],
      ['prototype', { prototype: 'x' }, 'prototype'],
    ])('%s is 422 VALIDATION_FAILED and stores nothing', async (_name, overrides, field) => {
      const answer = await svc.request(CUSTOMER, customerBody(overrides), { token: customer });
      expect(answer.status).toBe(422);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
      expect(answer.body.errors?.map((error) => error.field)).toContain(field);
      expect(await rowCounts()).toEqual({ rows: 0, events: 0 });
    });

    it('__proto__ is 422 VALIDATION_FAILED naming it, and pollutes nothing', async () => {
      const raw = JSON.stringify(customerBody()).replace(/^\{/, '{"__proto__":{"polluted":true},');
      const answer = await svc.request(CUSTOMER, raw, { token: customer });
      expect(answer.status).toBe(422);
      expect(answer.body.errors?.map((error) => error.field)).toContain('__proto__');
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(await rowCounts()).toEqual({ rows: 0, events: 0 });
    });

    it('the guest body sent to the authenticated route is 422', async () => {
      const answer = await svc.request(CUSTOMER, guestBody(), { token: customer });
      expect(answer.status).toBe(422);
      expect(answer.body.errors?.map((error) => error.field)).toEqual(expect.arrayContaining(['name', 'email', 'phone']));
      expect(await rowCounts()).toEqual({ rows: 0, events: 0 });
    });

    it('accepts the bounds exactly', async () => {
      expect((await svc.request(CUSTOMER, customerBody({ subject: 's'.repeat(255), message: 'm'.repeat(5000) }), { token: customer })).status).toBe(201);
    });
  });

  it.each([
    ['GET', CUSTOMER],
    ['GET', `${CUSTOMER}/${randomUUID()}`],
    ['GET', GUEST],
  ])('has no list or detail route: %s %s is 404 NOT_FOUND (feedback is one-way)', async (method, path) => {
    const response = await fetch(`${svc.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${customer}` } });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { errorCode: string }).errorCode).toBe('NOT_FOUND');
  });
});
