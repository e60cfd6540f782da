import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, jest } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { OtpHasher } from '../src/credentials/credential-secrets.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from '../src/credentials/credentials.config.js';
import type { User } from '../src/generated/prisma/client.js';
import { PasswordHasher } from '../src/passwords/password-hasher.js';
import {
  AUTH_PREFIX,
  createAccount,
  DAY,
  eventsOf,
  identitySuite,
  invite,
  lastEventOf,
  logIn,
  MINUTE,
  NEW_PASSWORD,
  PASSWORD,
  recordedEvents,
  serveMessageRequests,
  signedInAccessToken,
  suiteClock,
  tokenOf,
  uniqueEmail,
  uniquePhone,
} from './kit/index.js';
import { scaled } from '@school/testing';

const { admin: ADMIN, mobile: MOBILE } = AUTH_PREFIX;

describe('password forgot and reset (spec §3.1, §4.2 rules 1-7, contract §4)', () => {
  const identity = identitySuite();
  const clock = suiteClock(identity);

  const post = (path: string, body?: unknown, token?: string) => identity.request('POST', path, body, token);

  async function forgotByEmail(user: User, prefix = ADMIN) {
    const answer = await post(`${prefix}/password/forgot`, { email: user.email });
    expect(answer.status).toBe(200);
    await serveMessageRequests(identity);
    const event = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
    if (event.delivery.channel !== 'email') throw new Error('expected an email delivery');
    return { token: tokenOf(event.delivery.resetUrl), otp: event.otp, event };
  }

  async function forgotByPhone(user: User) {
    const answer = await post(`${ADMIN}/password/forgot`, { phone: user.phone });
    expect(answer.status).toBe(200);
    await serveMessageRequests(identity);
    const event = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
    return { otp: event.otp, event };
  }

  async function invitationTokenOf(user: User): Promise<string> {
    await invite(identity, user);
    return tokenOf((await lastEventOf(identity, EVENT_TYPES.invitationCreated, user.publicId)).inviteUrl);
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

    it('emails one message holding the link and the code, stores both only as hashes, expiring in 15 minutes', async () => {
      const user = await createAccount(identity);
      const { token, otp, event } = await forgotByEmail(user);

      expect(event).toMatchObject({ userId: user.publicId, name: user.name, delivery: { channel: 'email', email: user.email } });
      expect(otp).toMatch(/^\d{6}$/);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const [credential] = await credentialsOf(user);
      expect(credential).toMatchObject({ purpose: 'password_reset', target: user.email, attempts: 0, redeemedAt: null, retiredAt: null });
      expect(credential!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(credential!.otpHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(credential)).not.toContain(token);
      expect(credential!.otpHash).not.toContain(otp);
      const lifetime = credential!.expiresAt.getTime() - credential!.createdAt.getTime();
      expect(Math.abs(lifetime - 15 * MINUTE)).toBeLessThan(5_000);
      expect(new Date(event.expiresAt)).toEqual(credential!.expiresAt);
    });

    it('sends only the code, by SMS, to a verified phone', async () => {
      const user = await createAccount(identity, { phone: uniquePhone(), phoneVerified: true });
      const { event } = await forgotByPhone(user);
      expect(event.delivery).toEqual({ channel: 'sms', phone: user.phone });
      expect(JSON.stringify(event)).not.toContain('token=');
    });

    it('retires the earlier live reset', async () => {
      const user = await createAccount(identity);
      const first = await forgotByEmail(user);
      const second = await forgotByEmail(user);

      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token: first.token, password: NEW_PASSWORD }));
      const [earlier, later] = await credentialsOf(user);
      expect(earlier!.retiredAt).not.toBeNull();
      expect(later!.retiredAt).toBeNull();
      // The first code is no longer the person's live reset: it is just a wrong code now.
      if (first.otp !== second.otp) expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, otp: first.otp, password: NEW_PASSWORD }));
      expect((await post(`${ADMIN}/password/reset`, { token: second.token, password: NEW_PASSWORD })).status).toBe(200);
    });

    it('writes nothing for a banned or deleted account, yet answers the same', async () => {
      const banned = await createAccount(identity, { banned: true });
      const deleted = await createAccount(identity);
      await identity.prisma.user.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
      const known = await post(`${ADMIN}/password/forgot`, { email: (await createAccount(identity)).email });

      for (const user of [banned, deleted]) {
        expect(await post(`${ADMIN}/password/forgot`, { email: user.email })).toEqual(known);
        await serveMessageRequests(identity);
        expect(await credentialsOf(user)).toEqual([]);
        expect(await eventsOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId)).toEqual([]);
      }
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

    it('takes the token branch when a token is sent, whatever else is sent', async () => {
      const user = await createAccount(identity);
      const { token } = await forgotByEmail(user);
      const answer = await post(`${ADMIN}/password/reset`, { token, otp: 'junk', email: 'junk', password: NEW_PASSWORD });
      expect(answer.status).toBe(200);
    });

    it('revokes every session of the person: their access tokens are refused at once', async () => {
      const user = await createAccount(identity, { role: 'admin' });
      const accessTokens = [await signedInAccessToken(identity, user), await signedInAccessToken(identity, user)];
      const phone = { phone: uniquePhone() };
      expect((await post(`${ADMIN}/phone/verify/request`, phone, accessTokens[0])).status).toBe(200);

      const { token } = await forgotByEmail(user);
      expect((await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD })).status).toBe(200);

      for (const accessToken of accessTokens) {
        const refused = await post(`${ADMIN}/phone/verify/request`, phone, accessToken);
        expect(refused.status).toBe(401);
        expect(refused.body.errorCode).toBe('AUTH_UNAUTHENTICATED');
      }
      const sessions = await identity.prisma.session.findMany({ where: { userId: user.id } });
      expect(sessions).toHaveLength(2);
      for (const session of sessions) expect(session).toMatchObject({ revokedAt: expect.any(Date), revokedReason: 'password_reset' });
    });

    it('refuses a reset older than the OTP lifetime (15 minutes)', async () => {
      const user = await createAccount(identity);
      const { token, otp } = await forgotByEmail(user);
      clock.ahead(15 * MINUTE + 1_000);
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD }));
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, otp, password: NEW_PASSWORD }));
      clock.ahead(14 * MINUTE);
      expect((await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD })).status).toBe(200);
    });

    it('refuses a deleted account', async () => {
      const user = await createAccount(identity);
      const { token } = await forgotByEmail(user);
      await identity.prisma.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD }));
    });

    it('lets a banned account set its password; the account stays banned', async () => {
      const user = await createAccount(identity);
      const { token } = await forgotByEmail(user);
      await identity.prisma.user.update({ where: { id: user.id }, data: { banned: true } });
      expect((await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD })).status).toBe(200);
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      expect((await identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).banned).toBe(true);
      const login = await logIn(identity, user, NEW_PASSWORD);
      expect(login.status).toBe(403);
      expect(login.body.errorCode).toBe('AUTH_ACCOUNT_BANNED');
    });

    it('does not take an email-verification link', async () => {
      const user = await createAccount(identity);
      await post(`${ADMIN}/email/verify/resend`, { email: user.email });
      await serveMessageRequests(identity);
      const link = (await lastEventOf(identity, EVENT_TYPES.emailVerificationRequested, user.publicId)).verifyUrl;
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token: tokenOf(link), password: NEW_PASSWORD }));
    });
  });

  describe('reset by code', () => {
    it('takes the code with the email, verifies the email and revokes sessions', async () => {
      const user = await createAccount(identity);
      const accessToken = await signedInAccessToken(identity, user);
      const { otp } = await forgotByEmail(user);
      const answer = await post(`${ADMIN}/password/reset`, { email: user.email.toUpperCase(), otp, password: NEW_PASSWORD });
      expect(answer).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      const after = await identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      expect(after.emailVerifiedAt).not.toBeNull();
      expect(after.phoneVerifiedAt).toBeNull();
      expect((await post(`${ADMIN}/phone/verify/request`, { phone: uniquePhone() }, accessToken)).status).toBe(401);
      expect(await eventsOf(identity, EVENT_TYPES.passwordChanged, user.publicId)).toHaveLength(1);
    });

    it('takes the code with the verified phone after a forgot by phone, and emails the holder', async () => {
      const user = await createAccount(identity, { phone: uniquePhone(), phoneVerified: true });
      const { otp } = await forgotByPhone(user);
      expect((await post(`${MOBILE}/password/reset`, { phone: user.phone, otp, password: NEW_PASSWORD })).status).toBe(200);
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      const after = await identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      expect(after.emailVerifiedAt).toBeNull();
      expect(await lastEventOf(identity, EVENT_TYPES.passwordChanged, user.publicId)).toMatchObject({ email: user.email });
    });

    it('refuses an email and a phone that name different accounts', async () => {
      const user = await createAccount(identity, { phone: uniquePhone(), phoneVerified: true });
      const { otp } = await forgotByEmail(user);
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, phone: uniquePhone(), otp, password: NEW_PASSWORD }));
      expect((await post(`${ADMIN}/password/reset`, { email: user.email, phone: user.phone, otp, password: NEW_PASSWORD })).status).toBe(200);
    });

    it('counts a wrong code against the live reset; the fifth retires it, link included, so the right code then fails', async () => {
      const user = await createAccount(identity);
      const { token, otp } = await forgotByEmail(user);
      const wrong = otp === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, otp: wrong, password: NEW_PASSWORD }));
        const [credential] = await credentialsOf(user);
        expect(credential!.attempts).toBe(attempt);
        expect(credential!.retiredAt === null).toBe(attempt < 5);
      }
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, otp, password: NEW_PASSWORD }));
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD }));
      expect(await passwordIs(user, PASSWORD)).toBe(true);
      expect((await credentialsOf(user))[0]!.attempts).toBe(5);
    });

    it('still takes the right code after four wrong ones', async () => {
      const user = await createAccount(identity);
      const { otp } = await forgotByEmail(user);
      const wrong = otp === '000000' ? '111111' : '000000';
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, otp: wrong, password: NEW_PASSWORD }));
      }
      expect((await post(`${ADMIN}/password/reset`, { email: user.email, otp, password: NEW_PASSWORD })).status).toBe(200);
    });

    it('does not count a malformed request as an attempt', async () => {
      const user = await createAccount(identity);
      await forgotByEmail(user);
      const weak = await post(`${ADMIN}/password/reset`, { email: user.email, otp: '000000', password: 'weak' });
      expect(weak.body.errorCode).toBe('VALIDATION_FAILED');
      expect((await credentialsOf(user))[0]!.attempts).toBe(0);
    });
  });

  describe('the new password', () => {
    /**
     * How many transactions of the request under test were open at each argon2id hash of a new
     * password, while `act` runs. Counted through the async context, so that the app's background
     * work (the message-request worker, the outbox relay) in a transaction of its own at that moment
     * is not taken for the request's.
     */
    async function transactionsOpenAtEachHash(act: () => Promise<unknown>): Promise<number[]> {
      const unitOfWork = identity.app.get(UnitOfWork);
      const hasher = identity.app.get(PasswordHasher);
      const run = unitOfWork.run.bind(unitOfWork);
      const hash = hasher.hash.bind(hasher);
      const depth = new AsyncLocalStorage<number>();
      const seen: number[] = [];
      jest.spyOn(unitOfWork, 'run').mockImplementation((work, options) => run((tx) => depth.run((depth.getStore() ?? 0) + 1, () => work(tx)), options));
      jest.spyOn(hasher, 'hash').mockImplementation((password) => {
        seen.push(depth.getStore() ?? 0);
        return hash(password);
      });
      try {
        await act();
      } finally {
        jest.restoreAllMocks();
      }
      return seen;
    }

    it('is hashed before the redeeming transaction opens, by link and by code, and not at all for a wrong code', async () => {
      const byLink = await createAccount(identity);
      const { token } = await forgotByEmail(byLink);
      expect(await transactionsOpenAtEachHash(async () => expect((await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD })).status).toBe(200))).toEqual([0]);
      expect(await passwordIs(byLink, NEW_PASSWORD)).toBe(true);

      const byCode = await createAccount(identity);
      const { otp } = await forgotByEmail(byCode);
      const wrong = otp === '000000' ? '111111' : '000000';
      expect(
        await transactionsOpenAtEachHash(async () => expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: byCode.email, otp: wrong, password: NEW_PASSWORD }))),
      ).toEqual([]);
      expect(
        await transactionsOpenAtEachHash(async () => expect((await post(`${ADMIN}/password/reset`, { email: byCode.email, otp, password: NEW_PASSWORD })).status).toBe(200)),
      ).toEqual([0]);
      expect(await passwordIs(byCode, NEW_PASSWORD)).toBe(true);
    });

    it('is not stored when the credential was spent while it was being hashed', async () => {
      const THIRD_PASSWORD = 'Th1rd!Pebble-Moor';
      const user = await createAccount(identity);
      const { token, otp } = await forgotByEmail(user);
      const hasher = identity.app.get(PasswordHasher);
      const hash = hasher.hash.bind(hasher);
      // A concurrent redemption by code wins while the link's new password is being hashed.
      jest.spyOn(hasher, 'hash').mockImplementationOnce(async (password) => {
        jest.restoreAllMocks();
        expect((await post(`${ADMIN}/password/reset`, { email: user.email, otp, password: THIRD_PASSWORD })).status).toBe(200);
        return hash(password);
      });
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token, password: NEW_PASSWORD }));
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(false);
      expect(await passwordIs(user, THIRD_PASSWORD)).toBe(true);
      expect(await eventsOf(identity, EVENT_TYPES.passwordChanged, user.publicId)).toHaveLength(1);
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

    it('emails a link only (no code) valid 7 days, redeemable through the reset route', async () => {
      const user = await createAccount(identity, { password: null });
      const token = await invitationTokenOf(user);
      const event = await lastEventOf(identity, EVENT_TYPES.invitationCreated, user.publicId);
      expect(event).toMatchObject({ userId: user.publicId, email: user.email, name: user.name, role: user.role });
      expect(event).not.toHaveProperty('otp');
      const [credential] = await credentialsOf(user);
      expect(credential).toMatchObject({ purpose: 'account_invite', otpHash: null, target: user.email });
      expect(Math.abs(credential!.expiresAt.getTime() - credential!.createdAt.getTime() - 7 * DAY)).toBeLessThan(5_000);

      clock.ahead(6 * DAY);
      expect((await post(`${MOBILE}/password/reset`, { token, password: PASSWORD })).status).toBe(200);
      expect(await passwordIs(user, PASSWORD)).toBe(true);
      const after = await identity.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
      expect(after.emailVerifiedAt).not.toBeNull();
      expect(await eventsOf(identity, EVENT_TYPES.passwordChanged, user.publicId)).toHaveLength(1);
    });

    it('expires after 7 days', async () => {
      const user = await createAccount(identity, { password: null });
      const token = await invitationTokenOf(user);
      clock.ahead(7 * DAY + MINUTE);
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token, password: PASSWORD }));
    });

    it('redeemed, retires the live reset (rule 6)', async () => {
      const user = await createAccount(identity, { password: null });
      const inviteToken = await invitationTokenOf(user);
      const reset = await forgotByEmail(user);
      expect((await post(`${ADMIN}/password/reset`, { token: inviteToken, password: PASSWORD })).status).toBe(200);
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token: reset.token, password: NEW_PASSWORD }));
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, otp: reset.otp, password: NEW_PASSWORD }));
      const credentials = await credentialsOf(user);
      expect(credentials.map((credential) => [credential.purpose, credential.redeemedAt !== null, credential.retiredAt !== null])).toEqual([
        ['account_invite', true, false],
        ['password_reset', false, true],
      ]);
      expect(await passwordIs(user, PASSWORD)).toBe(true);
    });

    it('is retired when the live reset is redeemed, by link or by code (rule 6)', async () => {
      for (const by of ['token', 'otp'] as const) {
        const user = await createAccount(identity, { password: null });
        const inviteToken = await invitationTokenOf(user);
        const reset = await forgotByEmail(user);
        const body = by === 'token' ? { token: reset.token } : { email: user.email, otp: reset.otp };
        expect((await post(`${ADMIN}/password/reset`, { ...body, password: PASSWORD })).status).toBe(200);
        expectInvalidCode(await post(`${ADMIN}/password/reset`, { token: inviteToken, password: NEW_PASSWORD }));
        expect(await passwordIs(user, PASSWORD)).toBe(true);
      }
    });

    it('is never redeemed by a code, even one that matches (rule 5)', async () => {
      const user = await createAccount(identity, { password: null });
      await invite(identity, user);
      // An invitation never carries a code; give this one a known code to show the OTP lookup still ignores it.
      const [credential] = await credentialsOf(user);
      await identity.prisma.verificationCredential.update({
        where: { id: credential!.id },
        data: { otpHash: new OtpHasher(identity.app.get<CredentialsOptions>(CREDENTIALS_OPTIONS, { strict: false }).otpSecret).hash('424242') },
      });
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, otp: '424242', password: PASSWORD }));
      const after = (await credentialsOf(user))[0]!;
      expect(after).toMatchObject({ attempts: 0, redeemedAt: null, retiredAt: null });
      expect(await passwordIs(user, PASSWORD)).toBe(false);
    });

    it('a new invitation replaces the earlier one', async () => {
      const user = await createAccount(identity, { password: null });
      const first = await invitationTokenOf(user);
      const second = await invitationTokenOf(user);
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { token: first, password: PASSWORD }));
      expect((await post(`${ADMIN}/password/reset`, { token: second, password: PASSWORD })).status).toBe(200);
    });
  });
});
