import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { CredentialsRepository } from '../src/credentials/credentials.repository.js';
import type { User } from '../src/generated/prisma/client.js';
import { AccountMatchesRepository } from '../src/accounts/account-matches.repository.js';
import { UsersRepository } from '../src/accounts/users.repository.js';
import {
  AUTH_PREFIX,
  countEventsOf,
  createAccount,
  eventsOf,
  type HttpAnswer,
  identitySuite,
  invite,
  lastEventOf,
  MINUTE,
  NEW_PASSWORD,
  PASSWORD,
  recordedEvents,
  serveMessageRequests,
  suiteClock,
  uniqueEmail,
  uniquePhone,
} from './kit/index.js';

const { admin: ADMIN, mobile: MOBILE } = AUTH_PREFIX;

/** Contract §4: forgot and reset by a verified phone only, the hourly message cap, and answers that take as long for anyone. */
describe('public credential routes: phones, the message cap, no account probing', () => {
  // The worker serves requests when a test says so (serveMessageRequests), never in between.
  const identity = identitySuite({ MESSAGE_REQUESTS_INTERVAL_MS: '60000' });
  const clock = suiteClock(identity);

  afterEach(() => {
    jest.restoreAllMocks();
  });

  const post = (path: string, body?: unknown) => identity.request('POST', path, body);
  const credentialsOf = (user: User) => identity.prisma.verificationCredential.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } });
  const messagesTo = async (user: User) =>
    (await eventsOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId)).length + (await eventsOf(identity, EVENT_TYPES.emailVerificationRequested, user.publicId)).length;

  function expectInvalidCode(answer: HttpAnswer) {
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errorCode: 'AUTH_VERIFICATION_CODE_INVALID', data: null });
  }

  async function resetCodeOf(user: User): Promise<string> {
    expect((await post(`${ADMIN}/password/forgot`, { email: user.email })).status).toBe(200);
    await serveMessageRequests(identity);
    return (await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId)).otp;
  }

  describe('phones', () => {
    it('forgot by a phone that is not verified answers as any forgot and sends nothing', async () => {
      const unverified = await createAccount(identity, { phone: uniquePhone() });
      const verified = await createAccount(identity, { phone: uniquePhone(), phoneVerified: true });

      const answers = [await post(`${ADMIN}/password/forgot`, { phone: unverified.phone }), await post(`${ADMIN}/password/forgot`, { phone: verified.phone })];
      await serveMessageRequests(identity);

      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0]!.status).toBe(200);
      expect(await credentialsOf(unverified)).toEqual([]);
      expect(await eventsOf(identity, EVENT_TYPES.passwordResetRequested, unverified.publicId)).toEqual([]);
      expect((await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, verified.publicId)).delivery).toEqual({ channel: 'sms', phone: verified.phone });
    });

    it('reset by a phone that is not verified refuses even the right code, without counting an attempt', async () => {
      const user = await createAccount(identity, { phone: uniquePhone() });
      const otp = await resetCodeOf(user);

      expectInvalidCode(await post(`${MOBILE}/password/reset`, { phone: user.phone, otp, password: NEW_PASSWORD }));
      expectInvalidCode(await post(`${ADMIN}/password/reset`, { email: user.email, phone: user.phone, otp, password: NEW_PASSWORD }));
      expect((await credentialsOf(user))[0]).toMatchObject({ attempts: 0, redeemedAt: null, retiredAt: null });
      // The code itself is good: with the email alone it resets.
      expect((await post(`${ADMIN}/password/reset`, { email: user.email, otp, password: NEW_PASSWORD })).status).toBe(200);
    });
  });

  describe('at most five messages an hour to one account', () => {
    it('sends five of forgot and resend over both surfaces, answers the sixth the same and sends nothing; invitations do not count', async () => {
      const user = await createAccount(identity, { phone: uniquePhone(), phoneVerified: true });
      await invite(identity, user);
      const requests: [string, object][] = [
        [`${ADMIN}/password/forgot`, { email: user.email }],
        [`${MOBILE}/password/forgot`, { email: user.email }],
        [`${ADMIN}/password/forgot`, { phone: user.phone }],
        [`${ADMIN}/email/verify/resend`, { email: user.email }],
        [`${MOBILE}/email/verify/resend`, { email: user.email }],
      ];
      const answers: HttpAnswer[] = [];
      for (const [path, body] of requests) {
        answers.push(await post(path, body));
        await serveMessageRequests(identity);
      }
      expect(await messagesTo(user)).toBe(5);
      expect(await countEventsOf(identity, [EVENT_TYPES.invitationCreated], user.publicId)).toBe(1);

      const sixth = [await post(`${MOBILE}/password/forgot`, { email: user.email }), await post(`${ADMIN}/email/verify/resend`, { email: user.email })];
      await serveMessageRequests(identity);
      expect(sixth[0]).toEqual(answers[0]);
      expect(sixth[1]).toEqual(answers[3]);
      expect(await messagesTo(user)).toBe(5);
      expect(await credentialsOf(user)).toHaveLength(6); // the invitation and the five messages

      // The hour is a sliding window from each message: an hour after them, one more may go.
      clock.ahead(60 * MINUTE + MINUTE);
      await post(`${ADMIN}/password/forgot`, { email: user.email });
      await serveMessageRequests(identity);
      expect(await messagesTo(user)).toBe(6);
    });

    it('caps each account on its own', async () => {
      const flooded = await createAccount(identity);
      const other = await createAccount(identity);
      for (let request = 0; request < 7; request += 1) await post(`${ADMIN}/password/forgot`, { email: flooded.email });
      await post(`${ADMIN}/password/forgot`, { email: other.email });
      await serveMessageRequests(identity);
      expect(await messagesTo(flooded)).toBe(5);
      expect(await messagesTo(other)).toBe(1);
    });
  });

  describe('the same observable work whether or not the account exists', () => {
    const counts = async () => ({
      requests: await identity.prisma.messageRequest.count(),
      credentials: await identity.prisma.verificationCredential.count(),
      events: (await recordedEvents(identity)).length,
    });

    it.each([
      ['forgot by email', `${ADMIN}/password/forgot`, (user: User) => ({ email: user.email }), () => ({ email: uniqueEmail('nobody') })],
      ['forgot by phone', `${MOBILE}/password/forgot`, (user: User) => ({ phone: user.phone }), () => ({ phone: uniquePhone() })],
      ['email-verification resend', `${MOBILE}/email/verify/resend`, (user: User) => ({ email: user.email }), () => ({ email: uniqueEmail('nobody') })],
    ])('%s: the route writes the one request row and nothing else, for an account or for nobody', async (_, path, known, unknown) => {
      const user = await createAccount(identity, { phone: uniquePhone(), phoneVerified: true });
      await serveMessageRequests(identity);
      const before = await counts();

      const forUser = await post(path, known(user));
      const afterUser = await counts();
      const forNobody = await post(path, unknown());
      const afterNobody = await counts();

      expect(forNobody).toEqual(forUser);
      expect(afterUser).toEqual({ ...before, requests: before.requests + 1 });
      expect(afterNobody).toEqual({ ...afterUser, requests: afterUser.requests + 1 });
      // Served later, off the request's path: only the account gets a credential and a message.
      await serveMessageRequests(identity);
      expect(await counts()).toEqual({ requests: 0, credentials: before.credentials + 1, events: before.events + 1 });
    });

    it('reset by code takes the same steps for nobody, an unverified phone, an account without a live code and one with it', async () => {
      const credentials = identity.app.get(CredentialsRepository);
      const users = identity.app.get(UsersRepository);
      const matches = identity.app.get(AccountMatchesRepository);
      const steps: string[] = [];
      const record = <T extends object>(target: T, method: keyof T & string, step: string) => {
        const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
        jest.spyOn(target, method as never).mockImplementation(((...args: unknown[]) => {
          steps.push(step);
          return original(...args);
        }) as never);
      };
      record(matches, 'accountByEmail', 'find account');
      record(matches, 'accountByVerifiedPhone', 'find account');
      record(users, 'findLiveByEmail', 'users lookup');
      record(users, 'findLiveByVerifiedPhone', 'users lookup');
      record(identity.app.get(UnitOfWork), 'run', 'transaction');
      record(credentials, 'lockPerson', 'lock');
      record(credentials, 'lockNobody', 'lock');
      record(credentials, 'unfinishedOf', 'live credentials');
      record(credentials, 'recordFailedAttempt', 'write');
      record(credentials, 'recordNoAttempt', 'write');

      const withCode = await createAccount(identity, { phone: uniquePhone(), phoneVerified: true });
      const otp = await resetCodeOf(withCode);
      const wrong = otp === '000000' ? '111111' : '000000';
      const withoutCode = await createAccount(identity);
      const unverifiedPhone = await createAccount(identity, { phone: uniquePhone() });
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
        expectInvalidCode(await post(`${ADMIN}/password/reset`, { ...body, otp: wrong, password: PASSWORD }));
        traces[label] = [...steps];
      }
      const expected = ['find account', 'transaction', 'lock', 'live credentials', 'write'];
      for (const trace of Object.values(traces)) expect(trace).toEqual(expected);
      expect((await credentialsOf(withCode))[0]!.attempts).toBe(2);
    });
  });
});
