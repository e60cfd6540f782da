import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import type { User } from '../src/generated/prisma/client.js';
import {
  AUTH_PREFIX,
  createAccount,
  eventsOf,
  HOUR,
  type HttpAnswer,
  identitySuite,
  lastEventOf,
  MINUTE,
  serveMessageRequests,
  signedInAccessToken,
  suiteClock,
  tokenOf,
  uniqueEmail,
  uniquePhone,
} from './kit/index.js';

const { admin: ADMIN, mobile: MOBILE } = AUTH_PREFIX;

describe('email and phone verification', () => {
  const identity = identitySuite();
  const clock = suiteClock(identity);

  const post = (path: string, body?: unknown, token?: string) => identity.request('POST', path, body, token);
  const userOf = (user: User) => identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
  const credentialsOf = (user: User) => identity.prisma.verificationCredential.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });

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
      const [credential] = await credentialsOf(unverified);
      expect(credential).toMatchObject({ purpose: 'email_verification', target: unverified.email, otpHash: null });
      expect(Math.abs(credential!.expiresAt.getTime() - credential!.createdAt.getTime() - 24 * HOUR)).toBeLessThan(5_000);
    });

    it('confirm marks the email verified, once', async () => {
      const user = await createAccount(identity);
      const token = await resend(user);
      const answer = await post(`${ADMIN}/email/verify/confirm`, { token });
      expect(answer).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
      expect((await userOf(user)).emailVerifiedAt).not.toBeNull();
      expectInvalidCode(await post(`${ADMIN}/email/verify/confirm`, { token }));
    });

    it('a new link replaces the earlier one', async () => {
      const user = await createAccount(identity);
      const first = await resend(user, MOBILE);
      const second = await resend(user, MOBILE);
      expectInvalidCode(await post(`${MOBILE}/email/verify/confirm`, { token: first }));
      expect((await post(`${MOBILE}/email/verify/confirm`, { token: second })).status).toBe(200);
    });

    it('a link expires after 24 hours', async () => {
      const user = await createAccount(identity);
      const token = await resend(user);
      clock.ahead(24 * HOUR + MINUTE);
      expectInvalidCode(await post(`${ADMIN}/email/verify/confirm`, { token }));
      expect((await userOf(user)).emailVerifiedAt).toBeNull();
    });

    it('confirm takes neither an unknown token nor a password-reset link', async () => {
      expectInvalidCode(await post(`${ADMIN}/email/verify/confirm`, { token: 'x'.repeat(43) }));
      const user = await createAccount(identity);
      await post(`${ADMIN}/password/forgot`, { email: user.email });
      await serveMessageRequests(identity);
      const event = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
      if (event.delivery.channel !== 'email') throw new Error('expected an email delivery');
      expectInvalidCode(await post(`${ADMIN}/email/verify/confirm`, { token: tokenOf(event.delivery.resetUrl) }));
      expect((await userOf(user)).emailVerifiedAt).toBeNull();
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
    async function requestCode(accessToken: string, user: User, phone: string): Promise<string> {
      expect((await post(`${ADMIN}/phone/verify/request`, { phone }, accessToken)).status).toBe(200);
      return (await lastEventOf(identity, EVENT_TYPES.phoneVerificationRequested, user.publicId)).otp;
    }

    async function signedIn(role: 'admin' | 'staff' = 'staff') {
      const user = await createAccount(identity, { role });
      return { user, accessToken: await signedInAccessToken(identity, user) };
    }

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
      const [credential] = await credentialsOf(user);
      expect(credential).toMatchObject({ purpose: 'phone_verification', target: phone, tokenHash: null });
      expect(credential!.otpHash).not.toBe(event.otp);
      expect(Math.abs(credential!.expiresAt.getTime() - credential!.createdAt.getTime() - 15 * MINUTE)).toBeLessThan(5_000);

      const confirmed = await post(`${ADMIN}/phone/verify/confirm`, { phone, otp: event.otp }, accessToken);
      expect(confirmed).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
      const after = await userOf(user);
      expect(after.phone).toBe(phone);
      expect(after.phoneVerifiedAt).not.toBeNull();
      expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone, otp: event.otp }, accessToken));
    });

    it('counts wrong codes; the fifth retires the code, so the right one then fails', async () => {
      const { user, accessToken } = await signedIn();
      const phone = uniquePhone();
      const otp = await requestCode(accessToken, user, phone);
      const wrong = otp === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone, otp: wrong }, accessToken));
        expect((await credentialsOf(user))[0]!.attempts).toBe(attempt);
      }
      expect((await credentialsOf(user))[0]!.retiredAt).not.toBeNull();
      expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone, otp }, accessToken));
      expect((await userOf(user)).phoneVerifiedAt).toBeNull();
    });

    it('counts the right code for another phone as a wrong one', async () => {
      const { user, accessToken } = await signedIn();
      const phone = uniquePhone();
      const otp = await requestCode(accessToken, user, phone);
      expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone: uniquePhone(), otp }, accessToken));
      expect((await credentialsOf(user))[0]!.attempts).toBe(1);
      expect((await post(`${ADMIN}/phone/verify/confirm`, { phone, otp }, accessToken)).status).toBe(200);
    });

    it('refuses a code older than 15 minutes', async () => {
      const { user, accessToken } = await signedIn('admin');
      const phone = uniquePhone();
      const otp = await requestCode(accessToken, user, phone);
      clock.ahead(15 * MINUTE + 1_000);
      expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone, otp }, accessToken));
    });

    it('a new code replaces the earlier one; a code of one account never verifies another', async () => {
      const { user, accessToken } = await signedIn();
      const other = await signedIn();
      const phone = uniquePhone();
      const first = await requestCode(accessToken, user, phone);
      // Contract §9: one request per minute per account.
      clock.ahead(MINUTE + 1_000);
      const second = await requestCode(accessToken, user, phone);
      if (first !== second) expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone, otp: first }, accessToken));
      expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone, otp: second }, other.accessToken));
      expect((await post(`${ADMIN}/phone/verify/confirm`, { phone, otp: second }, accessToken)).status).toBe(200);
      expect((await userOf(other.user)).phoneVerifiedAt).toBeNull();
    });

    it('answers without any live code with 400 AUTH_VERIFICATION_CODE_INVALID', async () => {
      const { accessToken } = await signedIn();
      expectInvalidCode(await post(`${ADMIN}/phone/verify/confirm`, { phone: uniquePhone(), otp: '123456' }, accessToken));
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
      const { accessToken } = await signedIn();
      const answer = await post(`${ADMIN}/phone/verify/${route}`, body, accessToken);
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    });

    it('is not served on the mobile surface', async () => {
      const { accessToken } = await signedIn();
      expect((await post(`${MOBILE}/phone/verify/request`, { phone: uniquePhone() }, accessToken)).status).toBe(404);
    });
  });
});
