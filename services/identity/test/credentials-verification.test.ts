import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import type { User } from '../src/generated/prisma/client.js';
import {
  AUTH_PREFIX,
  createAccount,
  eventsOf,
  type HttpAnswer,
  identitySuite,
  lastEventOf,
  serveMessageRequests,
  signedInAccessToken,
  tokenOf,
  uniqueEmail,
  uniquePhone,
} from './kit/index.js';

const { admin: ADMIN, mobile: MOBILE } = AUTH_PREFIX;

/**
 * Email and phone verification on the wire (spec §5, contract §4): the same answer to any resend,
 * the envelopes, the bodies' validation, the access token phone verification needs, the surfaces,
 * and a spent code refused. Their rules (who gets a link, lifetimes, replacing, attempts, a code
 * of one account or phone never verifying another) are test/medium/credentials.medium.test.ts.
 */
describe('email and phone verification', () => {
  const identity = identitySuite();

  const post = (path: string, body?: unknown, token?: string) => identity.request('POST', path, body, token);
  const userOf = (user: User) => identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } });

  function expectInvalidCode(answer: HttpAnswer) {
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errorCode: 'AUTH_VERIFICATION_CODE_INVALID', data: null });
  }

  describe('email', () => {
    async function resend(user: User, prefix = ADMIN): Promise<string> {
      expect((await post(`${prefix}/email/verify/resend`, { email: user.email })).status).toBe(200);
      await serveMessageRequests(identity);
      return tokenOf((await lastEventOf(identity, EVENT_TYPES.emailVerificationRequested, user.publicId)).verifyUrl);
    }

    it('resend answers the same for an unknown, a verified and an unverified account; only the last gets a link', async () => {
      const unverified = await createAccount(identity);
      const verified = await createAccount(identity, { emailVerified: true });
      const banned = await createAccount(identity, { banned: true });
      const answers = await Promise.all([unverified.email, verified.email, banned.email, uniqueEmail('nobody')].map((email) => post(`${MOBILE}/email/verify/resend`, { email })));
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      expect(answers[0]).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
      await serveMessageRequests(identity);

      expect(await eventsOf(identity, EVENT_TYPES.emailVerificationRequested, unverified.publicId)).toHaveLength(1);
      expect(await eventsOf(identity, EVENT_TYPES.emailVerificationRequested, verified.publicId)).toEqual([]);
      expect(await eventsOf(identity, EVENT_TYPES.emailVerificationRequested, banned.publicId)).toEqual([]);
    });

    it('confirm marks the email verified, once', async () => {
      const user = await createAccount(identity);
      const token = await resend(user);
      const answer = await post(`${ADMIN}/email/verify/confirm`, { token });
      expect(answer).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
      expect((await userOf(user)).emailVerifiedAt).not.toBeNull();
      expectInvalidCode(await post(`${ADMIN}/email/verify/confirm`, { token }));
    });

    it.each([
      ['resend without email', 'email/verify/resend', {}],
      ['resend with a malformed email', 'email/verify/resend', { email: 'nope' }],
      ['resend with an undeclared field', 'email/verify/resend', { email: 'a@example.com', name: 'x' }],
      ['confirm without token', 'email/verify/confirm', {}],
      ['confirm with an empty token', 'email/verify/confirm', { token: '' }],
      ['confirm with a numeric token', 'email/verify/confirm', { token: 5 }],
      ['confirm with an undeclared field', 'email/verify/confirm', { token: 'abc', email: 'a@example.com' }],
    ])('refuses %s with 400 VALIDATION_FAILED', async (_, route, body) => {
      for (const prefix of [ADMIN, MOBILE]) {
        const answer = await post(`${prefix}/${route}`, body);
        expect(answer.status).toBe(400);
        expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
      }
    });
  });

  describe('phone (JWT)', () => {
    async function signedIn(role: 'admin' | 'staff' = 'staff') {
      const user = await createAccount(identity, { role });
      return { user, accessToken: await signedInAccessToken(identity, user) };
    }
    /** One caller for the refusals that write nothing: each sign-in costs two argon2id runs. */
    let caller: ReturnType<typeof signedIn> | undefined;
    const sharedCaller = () => (caller ??= signedIn());

    it('needs a valid access token', async () => {
      for (const route of ['request', 'confirm']) {
        const answer = await post(`${ADMIN}/phone/verify/${route}`, { phone: '+9779812345678', otp: '123456' });
        expect(answer.status).toBe(401);
        expect(answer.body.errorCode).toBe('AUTH_UNAUTHENTICATED');
        expect((await post(`${ADMIN}/phone/verify/${route}`, { phone: '+9779812345678' }, 'not-a-jwt')).status).toBe(401);
      }
    });

    it('sends a six-digit code by SMS, then sets the verified phone on confirm', async () => {
      const { user, accessToken } = await signedIn();
      const phone = uniquePhone();
      const answer = await post(`${ADMIN}/phone/verify/request`, { phone }, accessToken);
      expect(answer).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
      const event = await lastEventOf(identity, EVENT_TYPES.phoneVerificationRequested, user.publicId);
      expect(event).toMatchObject({ userId: user.publicId, phone, otp: expect.stringMatching(/^\d{6}$/) });

      const confirmed = await post(`${ADMIN}/phone/verify/confirm`, { phone, otp: event.otp }, accessToken);
      expect(confirmed).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
      const after = await userOf(user);
      expect(after.phone).toBe(phone);
      expect(after.phoneVerifiedAt).not.toBeNull();
      expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone, otp: event.otp }, accessToken));
    });

    it.each([
      ['a request without phone', 'request', {}],
      ['a request with a local number', 'request', { phone: '9812345678' }],
      ['a request with an undeclared field', 'request', { phone: '+9779812345678', otp: '123456' }],
      ['a confirm without otp', 'confirm', { phone: '+9779812345678' }],
      ['a confirm with a five-digit otp', 'confirm', { phone: '+9779812345678', otp: '12345' }],
      ['a confirm with a letter in the otp', 'confirm', { phone: '+9779812345678', otp: '12345a' }],
      ['a confirm without phone', 'confirm', { otp: '123456' }],
    ])('refuses %s with 400 VALIDATION_FAILED', async (_, route, body) => {
      const { accessToken } = await sharedCaller();
      const answer = await post(`${ADMIN}/phone/verify/${route}`, body, accessToken);
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    });

    it('is not served on the mobile surface', async () => {
      const { accessToken } = await sharedCaller();
      expect((await post(`${MOBILE}/phone/verify/request`, { phone: uniquePhone() }, accessToken)).status).toBe(404);
    });
  });
});
