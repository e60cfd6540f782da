import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Principal } from '@school/auth';
import { EVENT_TYPES, type EventPayload, forgotPasswordBody, resetPasswordBody, setPasswordBody } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { AccountMatchesRepository } from '../../src/accounts/account-matches.repository.js';
import { UsersRepository } from '../../src/accounts/users.repository.js';
import { CredentialsRepository } from '../../src/credentials/credentials.repository.js';
import { AccountsModule } from '../../src/accounts/accounts.module.js';
import { ResetPassword } from '../../src/auth/use-cases/reset-password.js';
import { SetPassword } from '../../src/auth/use-cases/set-password.js';
import { Clock } from '../../src/credentials/clock.js';
import { OtpHasher } from '../../src/credentials/credential-secrets.js';
import { CREDENTIALS_OPTIONS, type CredentialsOptions } from '../../src/credentials/credentials.config.js';
import { CredentialsModule } from '../../src/credentials/credentials.module.js';
import { EmailVerificationService } from '../../src/credentials/email-verification/email-verification.service.js';
import { InvitationsService } from '../../src/credentials/invitations.service.js';
import { MessageRequestsWorker } from '../../src/credentials/message-requests.worker.js';
import { PasswordResetService } from '../../src/credentials/password-reset/password-reset.service.js';
import { PhoneVerificationService } from '../../src/credentials/phone-verification/phone-verification.service.js';
import type { User } from '../../src/generated/prisma/client.js';
import { LoginBackoffModule } from '../../src/login-backoff/login-backoff.module.js';
import { PasswordHasher } from '../../src/passwords/password-hasher.js';
import { PasswordsModule } from '../../src/passwords/passwords.module.js';
import { SessionsService } from '../../src/sessions/sessions.service.js';
import { type AccountRows, NEW_PASSWORD, PASSWORD, uniqueEmail, uniquePhone, writeAccount } from '../kit/accounts.js';
import { DAY, HOUR, MINUTE, tokenOf } from '../kit/credentials.js';
import { type IdentityMedium, identityMediumWithSessions, mediumConfig } from './kit.js';

const CLIENT = { ip: '198.51.100.11', userAgent: 'jest' };

/** The events the credentials' use cases record. */
type CredentialEvent =
  | typeof EVENT_TYPES.passwordResetRequested
  | typeof EVENT_TYPES.passwordChanged
  | typeof EVENT_TYPES.invitationCreated
  | typeof EVENT_TYPES.emailVerificationRequested
  | typeof EVENT_TYPES.phoneVerificationRequested;
const INVALID = { code: 'AUTH_VERIFICATION_CODE_INVALID' };

/**
 * Verification credentials (spec §3.1, §4.2 rules 4-7, §5, contract §4) against the use cases, in
 * one world: what forgot issues and to whom, the reset by link and by code, expiry, attempts,
 * retiring, invitations, when the new password is hashed; email and phone verification; the
 * signed-in caller's set password; the hourly message cap and the same steps for anyone. The wire (the same answer for any account, the bodies' rules,
 * the surfaces, guards, sessions refused at once, an invitation from POST /api/users) is
 * credentials-reset.test.ts, credentials-verification.test.ts, credentials-messages.test.ts and
 * profile.test.ts.
 */
describe('verification credentials: the use cases over their repositories (medium)', () => {
  let world: IdentityMedium;
  let passwordHash: string;
  let restoreClock: (() => void) | undefined;

  beforeAll(async () => {
    world = await identityMediumWithSessions(
      'identity_credentials_medium',
      [ResetPassword, SetPassword],
      // The worker serves requests when a test says so (serveRequests), never in between.
      mediumConfig({ MESSAGE_REQUESTS_INTERVAL_MS: '60000' }),
      [AccountsModule, PasswordsModule, LoginBackoffModule, CredentialsModule],
      {
        rpc: true,
      },
    );
    // One hash for every account's first password: a reset still hashes its new one, and each check verifies.
    passwordHash = await world.get(PasswordHasher).hash(PASSWORD);
  });

  afterAll(() => world?.close());

  afterEach(() => {
    restoreClock?.();
    restoreClock = undefined;
  });

  /** Sets the credentials' clock `ms` ahead of real time until the next call or the test's end. */
  function clockAhead(ms: number): void {
    restoreClock?.();
    const spy = jest.spyOn(world.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + ms));
    restoreClock = () => spy.mockRestore();
  }

  const account = ({ password = true, ...rows }: AccountRows & { password?: boolean } = {}) => writeAccount(world.prisma, rows, password ? passwordHash : undefined);

  const eventsOf = async <Type extends CredentialEvent>(type: Type, user: User) =>
    (await world.recorded(type)).filter((event) => event['userId'] === user.publicId) as EventPayload<Type>[];
  const lastEventOf = async <Type extends CredentialEvent>(type: Type, user: User) => {
    const last = (await eventsOf(type, user)).at(-1);
    if (!last) throw new Error(`no ${type} event for ${user.publicId}`);
    return last as EventPayload<Type>;
  };
  const serveRequests = () => world.get(MessageRequestsWorker).drain();
  /** A forgot as the route takes it (the body parsed by its schema), served as the worker serves it. */
  async function forgot(body: Record<string, unknown>): Promise<void> {
    await world.get(PasswordResetService).forgot(forgotPasswordBody.parse(body));
    await serveRequests();
  }
  async function forgotByEmail(user: User) {
    await forgot({ email: user.email });
    const event = await lastEventOf(EVENT_TYPES.passwordResetRequested, user);
    if (event.delivery.channel !== 'email') throw new Error('expected an email delivery');
    return { token: tokenOf(event.delivery.resetUrl), otp: event.otp, event };
  }
  async function forgotByPhone(user: User) {
    await forgot({ phone: user.phone });
    return { event: await lastEventOf(EVENT_TYPES.passwordResetRequested, user) };
  }
  /** A reset as the route hands it over: the body parsed by the route's own schema. */
  const reset = (body: Record<string, unknown>) => world.get(ResetPassword).execute(resetPasswordBody.parse(body));
  const refused = (attempt: Promise<unknown>) => expect(attempt).rejects.toMatchObject(INVALID);
  async function invitationTokenOf(user: User): Promise<string> {
    await world.get(UnitOfWork).run((tx) => world.get(InvitationsService).issue(tx, user));
    return tokenOf((await lastEventOf(EVENT_TYPES.invitationCreated, user)).inviteUrl);
  }
  async function passwordIs(user: User, password: string): Promise<boolean> {
    const provider = await world.prisma.providerAccount.findUnique({ where: { userId_provider: { userId: user.id, provider: 'EMAIL' } } });
    return provider?.passwordHash ? world.get(PasswordHasher).verify(provider.passwordHash, password) : false;
  }
  const credentialsOf = (user: User) => world.prisma.verificationCredential.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
  const userOf = (user: User) => world.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
  const startSession = (user: User) => world.get(UnitOfWork).run((tx) => world.get(SessionsService).start(user, 'admin', undefined, CLIENT, tx));
  const sessionsOf = (user: User) => world.prisma.session.findMany({ where: { userId: user.id } });
  const wrongOf = (otp: string) => (otp === '000000' ? '111111' : '000000');

  describe('forgot', () => {
    it('issues one credential for a known email, nothing for an unknown email or phone', async () => {
      const user = await account();
      const credentialsBefore = await world.prisma.verificationCredential.count();
      const eventsBefore = (await world.recorded(EVENT_TYPES.passwordResetRequested)).length;
      await forgot({ email: user.email });
      await forgot({ email: uniqueEmail('nobody') });
      await forgot({ phone: uniquePhone() });
      expect(await world.prisma.verificationCredential.count()).toBe(credentialsBefore + 1);
      expect(await world.recorded(EVENT_TYPES.passwordResetRequested)).toHaveLength(eventsBefore + 1);
    });

    it('emails one message holding the link and the code, stores both only as hashes, expiring in 15 minutes', async () => {
      const user = await account();
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
      const user = await account({ phone: uniquePhone(), phoneVerified: true });
      const { event } = await forgotByPhone(user);
      expect(event.delivery).toEqual({ channel: 'sms', phone: user.phone });
      expect(JSON.stringify(event)).not.toContain('token=');
    });

    it('retires the earlier live reset', async () => {
      const user = await account();
      const first = await forgotByEmail(user);
      const second = await forgotByEmail(user);

      await refused(reset({ token: first.token, password: NEW_PASSWORD }));
      const [earlier, later] = await credentialsOf(user);
      expect(earlier!.retiredAt).not.toBeNull();
      expect(later!.retiredAt).toBeNull();
      // The first code is no longer the person's live reset: it is just a wrong code now.
      if (first.otp !== second.otp) await refused(reset({ email: user.email, otp: first.otp, password: NEW_PASSWORD }));
      await reset({ token: second.token, password: NEW_PASSWORD });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
    });

    it('writes nothing for a banned or deleted account', async () => {
      const banned = await account({ banned: true });
      const deleted = await account();
      await world.prisma.user.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
      for (const user of [banned, deleted]) {
        await forgot({ email: user.email });
        expect(await credentialsOf(user)).toEqual([]);
        expect(await eventsOf(EVENT_TYPES.passwordResetRequested, user)).toEqual([]);
      }
    });
  });

  describe('reset by link token', () => {
    it('sets the password, verifies the email, ends every session, tells the holder, and works once', async () => {
      const user = await account({ role: 'admin' });
      await startSession(user);
      await startSession(user);
      const { token, otp } = await forgotByEmail(user);

      await reset({ token, password: NEW_PASSWORD });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      expect((await userOf(user)).emailVerifiedAt).not.toBeNull();
      const sessions = await sessionsOf(user);
      expect(sessions).toHaveLength(2);
      for (const session of sessions) expect(session).toMatchObject({ revokedAt: expect.any(Date), revokedReason: 'password_reset' });
      const [changed] = await eventsOf(EVENT_TYPES.passwordChanged, user);
      expect(changed).toMatchObject({ userId: user.publicId, email: user.email, name: user.name, changedAt: expect.any(String) });
      expect((await credentialsOf(user))[0]!.redeemedAt).not.toBeNull();

      // Redeemed: neither its link nor its code works again.
      await refused(reset({ token, password: PASSWORD }));
      await refused(reset({ email: user.email, otp, password: PASSWORD }));
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
    });

    it('takes the token branch when a token is sent, whatever else is sent', async () => {
      const user = await account();
      const { token } = await forgotByEmail(user);
      await reset({ token, otp: 'junk', email: 'junk', password: NEW_PASSWORD });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
    });

    it('refuses a reset older than the OTP lifetime (15 minutes)', async () => {
      const user = await account();
      const { token, otp } = await forgotByEmail(user);
      clockAhead(15 * MINUTE + 1_000);
      await refused(reset({ token, password: NEW_PASSWORD }));
      await refused(reset({ email: user.email, otp, password: NEW_PASSWORD }));
      clockAhead(14 * MINUTE);
      await reset({ token, password: NEW_PASSWORD });
    });

    it('refuses a deleted account', async () => {
      const user = await account();
      const { token } = await forgotByEmail(user);
      await world.prisma.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
      await refused(reset({ token, password: NEW_PASSWORD }));
    });

    it('lets a banned account set its password; the account stays banned', async () => {
      const user = await account();
      const { token } = await forgotByEmail(user);
      await world.prisma.user.update({ where: { id: user.id }, data: { banned: true } });
      await reset({ token, password: NEW_PASSWORD });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      expect((await userOf(user)).banned).toBe(true);
    });

    it('does not take an email-verification link', async () => {
      const user = await account();
      await world.get(EmailVerificationService).resend(user.email);
      await serveRequests();
      const link = (await lastEventOf(EVENT_TYPES.emailVerificationRequested, user)).verifyUrl;
      await refused(reset({ token: tokenOf(link), password: NEW_PASSWORD }));
    });
  });

  describe('reset by code', () => {
    it('takes the code with the email, verifies the email only and ends the sessions', async () => {
      const user = await account();
      await startSession(user);
      const { otp } = await forgotByEmail(user);
      await reset({ email: user.email.toUpperCase(), otp, password: NEW_PASSWORD });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      const after = await userOf(user);
      expect(after.emailVerifiedAt).not.toBeNull();
      expect(after.phoneVerifiedAt).toBeNull();
      expect(await sessionsOf(user)).toEqual([expect.objectContaining({ revokedReason: 'password_reset' })]);
      expect(await eventsOf(EVENT_TYPES.passwordChanged, user)).toHaveLength(1);
    });

    it('takes the code with the verified phone after a forgot by phone, and emails the holder', async () => {
      const user = await account({ phone: uniquePhone(), phoneVerified: true });
      const { event } = await forgotByPhone(user);
      await reset({ phone: user.phone, otp: event.otp, password: NEW_PASSWORD });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      expect((await userOf(user)).emailVerifiedAt).toBeNull();
      expect(await lastEventOf(EVENT_TYPES.passwordChanged, user)).toMatchObject({ email: user.email });
    });

    it('refuses an email and a phone that name different accounts', async () => {
      const user = await account({ phone: uniquePhone(), phoneVerified: true });
      const { otp } = await forgotByEmail(user);
      await refused(reset({ email: user.email, phone: uniquePhone(), otp, password: NEW_PASSWORD }));
      await reset({ email: user.email, phone: user.phone, otp, password: NEW_PASSWORD });
    });

    it('counts a wrong code against the live reset; the fifth retires it, link included, so the right code then fails', async () => {
      const user = await account();
      const { token, otp } = await forgotByEmail(user);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        await refused(reset({ email: user.email, otp: wrongOf(otp), password: NEW_PASSWORD }));
        const [credential] = await credentialsOf(user);
        expect(credential!.attempts).toBe(attempt);
        expect(credential!.retiredAt === null).toBe(attempt < 5);
      }
      await refused(reset({ email: user.email, otp, password: NEW_PASSWORD }));
      await refused(reset({ token, password: NEW_PASSWORD }));
      expect(await passwordIs(user, PASSWORD)).toBe(true);
      expect((await credentialsOf(user))[0]!.attempts).toBe(5);
    });

    it('still takes the right code after four wrong ones', async () => {
      const user = await account();
      const { otp } = await forgotByEmail(user);
      for (let attempt = 1; attempt <= 4; attempt += 1) await refused(reset({ email: user.email, otp: wrongOf(otp), password: NEW_PASSWORD }));
      await reset({ email: user.email, otp, password: NEW_PASSWORD });
    });
  });

  describe('the new password', () => {
    /**
     * How many transactions of the call under test were open at each argon2id hash of a new
     * password, while `act` runs. Counted through the async context, so that the worker's
     * background work in a transaction of its own at that moment is not taken for the call's.
     */
    async function transactionsOpenAtEachHash(act: () => Promise<unknown>): Promise<number[]> {
      const unitOfWork = world.get(UnitOfWork);
      const hasher = world.get(PasswordHasher);
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
      const byLink = await account();
      const { token } = await forgotByEmail(byLink);
      expect(await transactionsOpenAtEachHash(() => reset({ token, password: NEW_PASSWORD }))).toEqual([0]);
      expect(await passwordIs(byLink, NEW_PASSWORD)).toBe(true);

      const byCode = await account();
      const { otp } = await forgotByEmail(byCode);
      expect(await transactionsOpenAtEachHash(() => refused(reset({ email: byCode.email, otp: wrongOf(otp), password: NEW_PASSWORD })))).toEqual([]);
      expect(await transactionsOpenAtEachHash(() => reset({ email: byCode.email, otp, password: NEW_PASSWORD }))).toEqual([0]);
      expect(await passwordIs(byCode, NEW_PASSWORD)).toBe(true);
    });

    it('is not stored when the credential was spent while it was being hashed', async () => {
      const THIRD_PASSWORD = 'Th1rd!Pebble-Moor';
      const user = await account();
      const { token, otp } = await forgotByEmail(user);
      const hasher = world.get(PasswordHasher);
      const hash = hasher.hash.bind(hasher);
      // A concurrent redemption by code wins while the link's new password is being hashed.
      jest.spyOn(hasher, 'hash').mockImplementationOnce(async (password) => {
        jest.restoreAllMocks();
        await reset({ email: user.email, otp, password: THIRD_PASSWORD });
        return hash(password);
      });
      await refused(reset({ token, password: NEW_PASSWORD }));
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(false);
      expect(await passwordIs(user, THIRD_PASSWORD)).toBe(true);
      expect(await eventsOf(EVENT_TYPES.passwordChanged, user)).toHaveLength(1);
    });
  });

  describe('invitations (account_invite)', () => {
    it('are a link only (no code) valid 7 days, redeemed through the reset', async () => {
      const user = await account({ password: false });
      const token = await invitationTokenOf(user);
      const event = await lastEventOf(EVENT_TYPES.invitationCreated, user);
      expect(event).toMatchObject({ userId: user.publicId, email: user.email, name: user.name, role: user.role });
      expect(event).not.toHaveProperty('otp');
      const [credential] = await credentialsOf(user);
      expect(credential).toMatchObject({ purpose: 'account_invite', otpHash: null, target: user.email });
      expect(Math.abs(credential!.expiresAt.getTime() - credential!.createdAt.getTime() - 7 * DAY)).toBeLessThan(5_000);

      clockAhead(6 * DAY);
      await reset({ token, password: PASSWORD });
      expect(await passwordIs(user, PASSWORD)).toBe(true);
      expect((await userOf(user)).emailVerifiedAt).not.toBeNull();
      expect(await eventsOf(EVENT_TYPES.passwordChanged, user)).toHaveLength(1);
    });

    it('expire after 7 days', async () => {
      const user = await account({ password: false });
      const token = await invitationTokenOf(user);
      clockAhead(7 * DAY + MINUTE);
      await refused(reset({ token, password: PASSWORD }));
    });

    it('redeemed, retire the live reset (rule 6)', async () => {
      const user = await account({ password: false });
      const inviteToken = await invitationTokenOf(user);
      const live = await forgotByEmail(user);
      await reset({ token: inviteToken, password: PASSWORD });
      await refused(reset({ token: live.token, password: NEW_PASSWORD }));
      await refused(reset({ email: user.email, otp: live.otp, password: NEW_PASSWORD }));
      const credentials = await credentialsOf(user);
      expect(credentials.map((credential) => [credential.purpose, credential.redeemedAt !== null, credential.retiredAt !== null])).toEqual([
        ['account_invite', true, false],
        ['password_reset', false, true],
      ]);
      expect(await passwordIs(user, PASSWORD)).toBe(true);
    });

    it.each(['token', 'otp'] as const)('are retired when the live reset is redeemed by %s (rule 6)', async (by) => {
      const user = await account({ password: false });
      const inviteToken = await invitationTokenOf(user);
      const live = await forgotByEmail(user);
      await reset({ ...(by === 'token' ? { token: live.token } : { email: user.email, otp: live.otp }), password: PASSWORD });
      await refused(reset({ token: inviteToken, password: NEW_PASSWORD }));
      expect(await passwordIs(user, PASSWORD)).toBe(true);
    });

    it('are never redeemed by a code, even one that matches (rule 5)', async () => {
      const user = await account({ password: false });
      await invitationTokenOf(user);
      // An invitation never carries a code; give this one a known code to show the OTP lookup still ignores it.
      const [credential] = await credentialsOf(user);
      const options = world.get(CREDENTIALS_OPTIONS as unknown as abstract new () => CredentialsOptions);
      await world.prisma.verificationCredential.update({ where: { id: credential!.id }, data: { otpHash: new OtpHasher(options.otpSecret).hash('424242') } });
      await refused(reset({ email: user.email, otp: '424242', password: PASSWORD }));
      expect((await credentialsOf(user))[0]).toMatchObject({ attempts: 0, redeemedAt: null, retiredAt: null });
      expect(await passwordIs(user, PASSWORD)).toBe(false);
    });

    it('a new one replaces the earlier one', async () => {
      const user = await account({ password: false });
      const first = await invitationTokenOf(user);
      const second = await invitationTokenOf(user);
      await refused(reset({ token: first, password: PASSWORD }));
      await reset({ token: second, password: PASSWORD });
    });
  });

  describe('email verification', () => {
    const emailVerification = () => world.get(EmailVerificationService);
    async function resend(user: User): Promise<string> {
      await emailVerification().resend(user.email);
      await serveRequests();
      return tokenOf((await lastEventOf(EVENT_TYPES.emailVerificationRequested, user)).verifyUrl);
    }

    it('sends a link, valid 24 hours, only to a live unverified account', async () => {
      const unverified = await account();
      const verified = await account({ emailVerified: true });
      const banned = await account({ banned: true });
      for (const email of [unverified.email, verified.email, banned.email, uniqueEmail('nobody')]) await emailVerification().resend(email);
      await serveRequests();
      expect(await eventsOf(EVENT_TYPES.emailVerificationRequested, unverified)).toHaveLength(1);
      expect(await eventsOf(EVENT_TYPES.emailVerificationRequested, verified)).toEqual([]);
      expect(await eventsOf(EVENT_TYPES.emailVerificationRequested, banned)).toEqual([]);
      const [credential] = await credentialsOf(unverified);
      expect(credential).toMatchObject({ purpose: 'email_verification', target: unverified.email, otpHash: null });
      expect(Math.abs(credential!.expiresAt.getTime() - credential!.createdAt.getTime() - 24 * HOUR)).toBeLessThan(5_000);
    });

    it('a new link replaces the earlier one', async () => {
      const user = await account();
      const first = await resend(user);
      const second = await resend(user);
      await refused(emailVerification().confirm(first));
      await emailVerification().confirm(second);
      expect((await userOf(user)).emailVerifiedAt).not.toBeNull();
    });

    it('a link expires after 24 hours', async () => {
      const user = await account();
      const token = await resend(user);
      clockAhead(24 * HOUR + MINUTE);
      await refused(emailVerification().confirm(token));
      expect((await userOf(user)).emailVerifiedAt).toBeNull();
    });

    it('confirm takes neither an unknown token nor a password-reset link', async () => {
      await refused(emailVerification().confirm('x'.repeat(43)));
      const user = await account();
      const { token } = await forgotByEmail(user);
      await refused(emailVerification().confirm(token));
      expect((await userOf(user)).emailVerifiedAt).toBeNull();
    });
  });

  describe('phone verification', () => {
    const phoneVerification = () => world.get(PhoneVerificationService);
    const principalOf = (user: User): Principal => ({ userId: user.publicId, sessionId: randomUUID(), role: user.role, surface: 'admin', expiresAt: new Date(Date.now() + HOUR) });
    async function requestCode(user: User, phone: string): Promise<string> {
      await phoneVerification().request(principalOf(user), phone);
      return (await lastEventOf(EVENT_TYPES.phoneVerificationRequested, user)).otp;
    }
    const confirm = (user: User, phone: string, otp: string) => phoneVerification().confirm(principalOf(user), phone, otp);

    it('sends a six-digit code, valid 15 minutes and stored only as a hash, then sets the verified phone, once', async () => {
      const user = await account({ role: 'staff' });
      const phone = uniquePhone();
      await phoneVerification().request(principalOf(user), phone);
      const event = await lastEventOf(EVENT_TYPES.phoneVerificationRequested, user);
      expect(event).toMatchObject({ userId: user.publicId, phone, otp: expect.stringMatching(/^\d{6}$/) });
      const [credential] = await credentialsOf(user);
      expect(credential).toMatchObject({ purpose: 'phone_verification', target: phone, tokenHash: null });
      expect(credential!.otpHash).not.toBe(event.otp);
      expect(Math.abs(credential!.expiresAt.getTime() - credential!.createdAt.getTime() - 15 * MINUTE)).toBeLessThan(5_000);

      await confirm(user, phone, event.otp);
      expect(await userOf(user)).toMatchObject({ phone, phoneVerifiedAt: expect.any(Date) });
      await refused(confirm(user, phone, event.otp));
    });

    it('counts wrong codes; the fifth retires the code, so the right one then fails', async () => {
      const user = await account({ role: 'staff' });
      const phone = uniquePhone();
      const otp = await requestCode(user, phone);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        await refused(confirm(user, phone, wrongOf(otp)));
        expect((await credentialsOf(user))[0]!.attempts).toBe(attempt);
      }
      expect((await credentialsOf(user))[0]!.retiredAt).not.toBeNull();
      await refused(confirm(user, phone, otp));
      expect((await userOf(user)).phoneVerifiedAt).toBeNull();
    });

    it('counts the right code for another phone as a wrong one', async () => {
      const user = await account({ role: 'staff' });
      const phone = uniquePhone();
      const otp = await requestCode(user, phone);
      await refused(confirm(user, uniquePhone(), otp));
      expect((await credentialsOf(user))[0]!.attempts).toBe(1);
      await confirm(user, phone, otp);
    });

    it('refuses a code older than 15 minutes', async () => {
      const user = await account({ role: 'admin' });
      const phone = uniquePhone();
      const otp = await requestCode(user, phone);
      clockAhead(15 * MINUTE + 1_000);
      await refused(confirm(user, phone, otp));
    });

    it('a new code replaces the earlier one; a code of one account never verifies another', async () => {
      const user = await account({ role: 'staff' });
      const other = await account({ role: 'staff' });
      const phone = uniquePhone();
      const first = await requestCode(user, phone);
      // Contract §9: one request per minute per account.
      clockAhead(MINUTE + 1_000);
      const second = await requestCode(user, phone);
      if (first !== second) await refused(confirm(user, phone, first));
      await refused(confirm(other, phone, second));
      await confirm(user, phone, second);
      expect((await userOf(other)).phoneVerifiedAt).toBeNull();
    });

    it('refuses a confirm without any live code', async () => {
      const user = await account({ role: 'staff' });
      await refused(confirm(user, uniquePhone(), '123456'));
    });
  });

  describe('set password (the signed-in caller)', () => {
    /** The caller signed in twice: `current` is the session its token belongs to. */
    async function signedInTwice(user: User) {
      await startSession(user);
      await startSession(user);
      const [current, other] = await sessionsOf(user);
      return { current: current!, other: other!, principal: principalOf(user, current!.id) };
    }
    const principalOf = (user: User, sessionId: string): Principal => ({
      userId: user.publicId,
      sessionId,
      role: user.role,
      surface: 'admin',
      expiresAt: new Date(Date.now() + HOUR),
    });
    const setPassword = (principal: Principal, body: Record<string, unknown>) => world.get(SetPassword).execute(principal, setPasswordBody.parse(body));
    const outcome = (work: Promise<unknown>) =>
      work.then(
        () => 'done',
        (error: { code?: string }) => error.code ?? error,
      );

    it.each(['staff', 'customer'] as const)('changes the password of a %s, ending the other sessions only, and tells the holder', async (role) => {
      const user = await account({ role });
      const { current, other, principal } = await signedInTwice(user);
      await setPassword(principal, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(await passwordIs(user, NEW_PASSWORD)).toBe(true);
      expect(await world.prisma.session.findUniqueOrThrow({ where: { id: current.id } })).toMatchObject({ revokedAt: null });
      expect(await world.prisma.session.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({ revokedReason: 'password_changed' });
      expect(await eventsOf(EVENT_TYPES.passwordChanged, user)).toEqual([{ userId: user.publicId, email: user.email, name: 'Test Person', changedAt: expect.any(String) }]);
    });

    it('sets a first password without currentPassword', async () => {
      const invited = await account({ password: false });
      await setPassword(principalOf(invited, randomUUID()), { newPassword: NEW_PASSWORD });
      expect(await passwordIs(invited, NEW_PASSWORD)).toBe(true);
    });

    it('requires currentPassword once a password exists, and refuses a wrong one; both keep the password and the sessions', async () => {
      const user = await account();
      const { principal } = await signedInTwice(user);
      expect(await outcome(setPassword(principal, { newPassword: NEW_PASSWORD }))).toBe('AUTH_CURRENT_PASSWORD_REQUIRED');
      expect(await outcome(setPassword(principal, { currentPassword: 'Wr0ng!password', newPassword: NEW_PASSWORD }))).toBe('AUTH_INVALID_CREDENTIALS');
      expect(await passwordIs(user, PASSWORD)).toBe(true);
      expect(await sessionsOf(user)).toEqual([expect.objectContaining({ revokedAt: null }), expect.objectContaining({ revokedAt: null })]);
      expect(await eventsOf(EVENT_TYPES.passwordChanged, user)).toEqual([]);
    });

    it('refuses the token of a since-deleted account', async () => {
      const user = await account();
      await world.prisma.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
      expect(await outcome(setPassword(principalOf(user, randomUUID()), { currentPassword: PASSWORD, newPassword: NEW_PASSWORD }))).toBe('AUTH_UNAUTHENTICATED');
    });
  });

  describe('phones and messages', () => {
    const messagesTo = async (user: User) =>
      (await eventsOf(EVENT_TYPES.passwordResetRequested, user)).length + (await eventsOf(EVENT_TYPES.emailVerificationRequested, user)).length;

    it('forgot by a phone that is not verified sends nothing; by a verified one, the code by SMS', async () => {
      const unverified = await account({ phone: uniquePhone() });
      const verified = await account({ phone: uniquePhone(), phoneVerified: true });
      await forgot({ phone: unverified.phone });
      await forgot({ phone: verified.phone });
      expect(await credentialsOf(unverified)).toEqual([]);
      expect(await eventsOf(EVENT_TYPES.passwordResetRequested, unverified)).toEqual([]);
      expect((await lastEventOf(EVENT_TYPES.passwordResetRequested, verified)).delivery).toEqual({ channel: 'sms', phone: verified.phone });
    });

    it('reset by a phone that is not verified refuses even the right code, without counting an attempt', async () => {
      const user = await account({ phone: uniquePhone() });
      const { otp } = await forgotByEmail(user);
      await refused(reset({ phone: user.phone, otp, password: NEW_PASSWORD }));
      await refused(reset({ email: user.email, phone: user.phone, otp, password: NEW_PASSWORD }));
      expect((await credentialsOf(user))[0]).toMatchObject({ attempts: 0, redeemedAt: null, retiredAt: null });
      // The code itself is good: with the email alone it resets.
      await reset({ email: user.email, otp, password: NEW_PASSWORD });
    });

    it('sends at most five messages of forgot and resend an hour to one account, whatever the way; invitations do not count', async () => {
      const user = await account({ phone: uniquePhone(), phoneVerified: true });
      await invitationTokenOf(user);
      const resend = async () => {
        await world.get(EmailVerificationService).resend(user.email);
        await serveRequests();
      };
      await forgot({ email: user.email });
      await forgot({ email: user.email.toUpperCase() });
      await forgot({ phone: user.phone });
      await resend();
      await resend();
      expect(await messagesTo(user)).toBe(5);
      expect(await eventsOf(EVENT_TYPES.invitationCreated, user)).toHaveLength(1);

      await forgot({ email: user.email });
      await resend();
      expect(await messagesTo(user)).toBe(5);
      expect(await credentialsOf(user)).toHaveLength(6); // the invitation and the five messages

      // The hour is a sliding window from each message: an hour after them, one more may go.
      clockAhead(60 * MINUTE + MINUTE);
      await forgot({ email: user.email });
      expect(await messagesTo(user)).toBe(6);
    });

    it('caps each account on its own', async () => {
      const flooded = await account();
      const other = await account();
      for (let request = 0; request < 7; request += 1) await world.get(PasswordResetService).forgot(forgotPasswordBody.parse({ email: flooded.email }));
      await forgot({ email: other.email });
      expect(await messagesTo(flooded)).toBe(5);
      expect(await messagesTo(other)).toBe(1);
    });

    it('reset by code takes the same steps for nobody, an unverified phone, an account without a live code and one with it', async () => {
      const credentials = world.get(CredentialsRepository);
      const users = world.get(UsersRepository);
      const matches = world.get(AccountMatchesRepository);
      const steps: string[] = [];
      const record = <T extends object>(target: T, method: keyof T & string, step: string) => {
        const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
        jest.spyOn(target, method as never).mockImplementation(((...args: unknown[]) => {
          steps.push(step);
          return original(...args);
        }) as never);
      };
      const withCode = await account({ phone: uniquePhone(), phoneVerified: true });
      const { otp } = await forgotByEmail(withCode);
      const withoutCode = await account();
      const unverifiedPhone = await account({ phone: uniquePhone() });
      record(matches, 'accountByEmail', 'find account');
      record(matches, 'accountByVerifiedPhone', 'find account');
      record(users, 'findLiveByEmail', 'users lookup');
      record(users, 'findLiveByVerifiedPhone', 'users lookup');
      record(world.get(UnitOfWork), 'run', 'transaction');
      record(credentials, 'lockPerson', 'lock');
      record(credentials, 'lockNobody', 'lock');
      record(credentials, 'unfinishedOf', 'live credentials');
      record(credentials, 'recordFailedAttempt', 'write');
      record(credentials, 'recordNoAttempt', 'write');
      try {
        const bodies = {
          nobodyByEmail: { email: uniqueEmail('nobody') },
          nobodyByPhone: { phone: uniquePhone() },
          unverifiedPhone: { phone: unverifiedPhone.phone },
          withoutCode: { email: withoutCode.email },
          withCodeByEmail: { email: withCode.email },
          withCodeByPhone: { phone: withCode.phone },
        };
        const traces: Record<string, string[]> = {};
        for (const [label, body] of Object.entries(bodies)) {
          steps.length = 0;
          await refused(reset({ ...body, otp: wrongOf(otp), password: PASSWORD }));
          traces[label] = [...steps];
        }
        const expected = ['find account', 'transaction', 'lock', 'live credentials', 'write'];
        for (const trace of Object.values(traces)) expect(trace).toEqual(expected);
      } finally {
        jest.restoreAllMocks();
      }
      expect((await credentialsOf(withCode))[0]!.attempts).toBe(2);
    });
  });
});
