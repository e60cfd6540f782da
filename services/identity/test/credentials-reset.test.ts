import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import type { User } from '../src/generated/prisma/client.js';
import { PasswordHasher } from '../src/passwords/password-hasher.js';
import {
  AUTH_PREFIX,
  createAccount,
  eventsOf,
  identitySuite,
  lastEventOf,
  logIn,
  NEW_PASSWORD,
  PASSWORD,
  recordedEvents,
  serveMessageRequests,
  signedInAccessToken,
  tokenOf,
  uniqueEmail,
  uniquePhone,
} from './kit/index.js';
import { scaled } from '@school/testing';

const { admin: ADMIN, mobile: MOBILE } = AUTH_PREFIX;

/**
 * Forgot and reset on the wire (spec §3.1, §4.2 rules 1-3, contract §4): the same answer, in the
 * same time, for any account; the body's branch and field rules; the envelopes; both surfaces; the
 * sessions a reset ends refused at once; an invitation from POST /api/users letting the person in.
 * The rules of the use cases (what forgot issues and to whom, redeeming by link and by code, expiry,
 * attempts, retiring, invitations, when the new password is hashed) are
 * test/medium/password-reset.medium.test.ts.
 */
describe('password forgot and reset (spec §3.1, §4.2 rules 1-7, contract §4)', () => {
  const identity = identitySuite();

  const post = (path: string, body?: unknown, token?: string) => identity.request('POST', path, body, token);

  async function forgotByEmail(user: User, prefix = ADMIN) {
    const answer = await post(`${prefix}/password/forgot`, { email: user.email });
    expect(answer.status).toBe(200);
    await serveMessageRequests(identity);
    const event = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
    if (event.delivery.channel !== 'email') throw new Error('expected an email delivery');
    return { token: tokenOf(event.delivery.resetUrl), otp: event.otp, event };
  }

  async function passwordIs(user: User, password: string): Promise<boolean> {
    const account = await identity.prisma.providerAccount.findUnique({ where: { userId_provider: { userId: user.id, provider: 'EMAIL' } } });
    return account?.passwordHash ? identity.app.get(PasswordHasher).verify(account.passwordHash, password) : false;
  }

  const credentialsOf = (user: User) => identity.prisma.verificationCredential.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });

  function expectInvalidCode(answer: Awaited<ReturnType<typeof post>>) {
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errorCode: 'AUTH_VERIFICATION_CODE_INVALID', data: null });
  }

  describe('forgot', () => {
    it('answers an unknown email exactly as a known one, and writes nothing for it', async () => {
      const user = await createAccount(identity);
      const eventsBefore = (await recordedEvents(identity)).length;
      const credentialsBefore = await identity.prisma.verificationCredential.count();

      const known = await post(`${ADMIN}/password/forgot`, { email: user.email });
      const unknown = await post(`${ADMIN}/password/forgot`, { email: uniqueEmail('nobody') });
      const unknownPhone = await post(`${ADMIN}/password/forgot`, { phone: uniquePhone() });

      expect(known.status).toBe(200);
      expect(unknown).toEqual(known);
      expect(unknownPhone).toEqual(known);
      expect(known.body).toEqual({ message: expect.any(String), data: null, errorCode: null });
      await serveMessageRequests(identity);
      expect((await recordedEvents(identity)).length).toBe(eventsBefore + 1);
      expect(await identity.prisma.verificationCredential.count()).toBe(credentialsBefore + 1);
    });

    it('takes about as long for an unknown email as for a known one', async () => {
      const user = await createAccount(identity);
      const time = async (email: string) => {
        const started = performance.now();
        await post(`${ADMIN}/password/forgot`, { email });
        return performance.now() - started;
      };
      await time(user.email);
      const known: number[] = [];
      const unknown: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        known.push(await time(user.email));
        unknown.push(await time(uniqueEmail('nobody')));
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
      // Both are a lookup plus (for a real account) one short transaction: well under 50 ms apart
      // (on a quiet machine; a loaded one stretches both).
      expect(Math.abs(median(known) - median(unknown))).toBeLessThan(scaled(50));
    });

    it.each([
      ['neither email nor phone', {}],
      ['both email and phone', { email: 'a@example.com', phone: '+9779812345678' }],
      ['a malformed email', { email: 'not-an-email' }],
      ['a phone that is not E.164', { phone: '9812345678' }],
      ['an undeclared field', { email: 'a@example.com', extra: true }],
      ['a number for the email', { email: 42 }],
    ])('refuses %s with 400 VALIDATION_FAILED', async (_, body) => {
      const answer = await post(`${ADMIN}/password/forgot`, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ errorCode: 'VALIDATION_FAILED', data: null, errors: expect.any(Array) });
    });
  });

  describe('reset input rules', () => {
    it.each([
      ['an empty body (rule 1)', 'AUTH_PASSWORD_RESET_INPUT_REQUIRED', {}],
      ['only a password (rule 1)', 'AUTH_PASSWORD_RESET_INPUT_REQUIRED', { password: PASSWORD }],
      ['an empty token and nothing else (rule 1)', 'AUTH_PASSWORD_RESET_INPUT_REQUIRED', { token: '', password: PASSWORD }],
      ['an email without otp (rule 2)', 'AUTH_OTP_REQUIRED', { email: 'a@example.com', password: PASSWORD }],
      ['a phone without otp (rule 2)', 'AUTH_OTP_REQUIRED', { phone: '+9779812345678', password: PASSWORD }],
      ['an email without otp and without password (rule 2 before fields)', 'AUTH_OTP_REQUIRED', { email: 'a@example.com' }],
      ['an otp without email or phone (rule 3)', 'AUTH_OTP_TARGET_REQUIRED', { otp: '123456', password: PASSWORD }],
      ['a malformed otp without email or phone (rule 3 before fields)', 'AUTH_OTP_TARGET_REQUIRED', { otp: '12' }],
      ['a token without password', 'VALIDATION_FAILED', { token: 'x'.repeat(43) }],
      ['a token with a weak password', 'VALIDATION_FAILED', { token: 'x'.repeat(43), password: 'weakpassword' }],
      ['a token with a 33-character password', 'VALIDATION_FAILED', { token: 'x'.repeat(43), password: `Aa1!${'x'.repeat(29)}` }],
      ['a token with a 7-character password', 'VALIDATION_FAILED', { token: 'x'.repeat(43), password: 'Aa1!xyz' }],
      ['a five-digit otp', 'VALIDATION_FAILED', { otp: '12345', email: 'a@example.com', password: PASSWORD }],
      ['a seven-digit otp', 'VALIDATION_FAILED', { otp: '1234567', email: 'a@example.com', password: PASSWORD }],
      ['a non-numeric otp', 'VALIDATION_FAILED', { otp: '12a456', email: 'a@example.com', password: PASSWORD }],
      ['an otp with a non-E.164 phone', 'VALIDATION_FAILED', { otp: '123456', phone: '009779812345678', password: PASSWORD }],
      ['an otp with a malformed email', 'VALIDATION_FAILED', { otp: '123456', email: 'nope', password: PASSWORD }],
      ['an otp without password', 'VALIDATION_FAILED', { otp: '123456', email: 'a@example.com' }],
      ['an undeclared field', 'VALIDATION_FAILED', { token: 'x'.repeat(43), password: PASSWORD, role: 'admin' }],
      ['a numeric otp', 'VALIDATION_FAILED', { otp: 123456, email: 'a@example.com', password: PASSWORD }],
      ['an over-long token', 'VALIDATION_FAILED', { token: 'x'.repeat(257), password: PASSWORD }],
      ['an unknown token (rule 4)', 'AUTH_VERIFICATION_CODE_INVALID', { token: 'x'.repeat(43), password: PASSWORD }],
      ['a code for an unknown email (rule 4)', 'AUTH_VERIFICATION_CODE_INVALID', { otp: '123456', email: 'nobody@example.com', password: PASSWORD }],
      ['a code for an unknown phone (rule 4)', 'AUTH_VERIFICATION_CODE_INVALID', { otp: '123456', phone: '+9779800000001', password: PASSWORD }],
    ])('answers %s with 400 %s', async (_, code, body) => {
      for (const prefix of [ADMIN, MOBILE]) {
        const answer = await post(`${prefix}/password/reset`, body);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ errorCode: code, data: null });
      }
    });

    it('answers malformed JSON with 400 VALIDATION_FAILED', async () => {
      const answer = await post(`${ADMIN}/password/reset`, '{"token":');
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    });
  });

  describe('reset by link token', () => {
    it('sets the password, answers 200 with data null, verifies the email, emails the holder, and works once', async () => {
      const user = await createAccount(identity);
      const { token, otp } = await forgotByEmail(user);

      const answer = await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD });
      expect(answer).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      expect((await logIn(identity, user, NEW_PASSWORD)).status).toBe(200);
      expect((await logIn(identity, user, PASSWORD)).status).toBe(401);
      expect((await identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerifiedAt).not.toBeNull();
      const [changed] = await eventsOf(identity, EVENT_TYPES.passwordChanged, user.publicId);
      expect(changed).toMatchObject({ userId: user.publicId, email: user.email, name: user.name, changedAt: expect.any(String) });
      expect((await credentialsOf(user))[0]!.redeemedAt).not.toBeNull();

      // Redeemed: neither its link nor its code works again.
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token, password: PASSWORD }));
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, otp, password: PASSWORD }));
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
    });

    it('works on the mobile surface the same way', async () => {
      const user = await createAccount(identity);
      const { token } = await forgotByEmail(user, MOBILE);
      expect((await post(`${MOBILE}/password/reset`, { token, password: NEW_PASSWORD })).status).toBe(200);
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
    });

    it('revokes every session of the person on a reset by code: their access tokens are refused at once', async () => {
      const user = await createAccount(identity, { role: 'admin' });
      const accessTokens = [await signedInAccessToken(identity, user), await signedInAccessToken(identity, user)];
      const phone = { phone: uniquePhone() };
      expect((await post(`${ADMIN}/phone/verify/request`, phone, accessTokens[0])).status).toBe(200);

      const { otp } = await forgotByEmail(user);
      const answer = await post(`${ADMIN}/password/reset`, { email: user.email, otp, password: NEW_PASSWORD });
      expect(answer).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });

      for (const accessToken of accessTokens) {
        const refused = await post(`${ADMIN}/phone/verify/request`, phone, accessToken);
        expect(refused.status).toBe(401);
        expect(refused.body.errorCode).toBe('AUTH_UNAUTHENTICATED');
      }
      const sessions = await identity.prisma.session.findMany({ where: { userId: user.id } });
      expect(sessions).toHaveLength(2);
      for (const session of sessions) expect(session).toMatchObject({ revokedAt: expect.any(Date), revokedReason: 'password_reset' });
    });
  });

  describe('reset by code', () => {
    it('does not count a malformed request as an attempt', async () => {
      const user = await createAccount(identity);
      await forgotByEmail(user);
      const weak = await post(`${ADMIN}/password/reset`, { email: user.email, otp: '000000', password: 'weak' });
      expect(weak.body.errorCode).toBe('VALIDATION_FAILED');
      expect((await credentialsOf(user))[0]!.attempts).toBe(0);
    });
  });

  describe('invitations (account_invite)', () => {
    it('are sent when an administrator creates an account, and let the person in', async () => {
      const admin = await createAccount(identity, { role: 'admin' });
      const email = uniqueEmail('invited');
      const created = await post('/api/users', { email, name: 'Invited Person', role: 'customer' }, await signedInAccessToken(identity, admin));
      expect(created.status).toBe(201);
      const person = await identity.prisma.user.findFirstOrThrow({ where: { email } });
      const { inviteUrl } = await lastEventOf(identity, EVENT_TYPES.invitationCreated, person.publicId);

      expect((await post(`${MOBILE}/password/reset`, { token: tokenOf(inviteUrl), password: PASSWORD })).status).toBe(200);
      expect((await logIn(identity, person)).status).toBe(200);
    });
  });
});
