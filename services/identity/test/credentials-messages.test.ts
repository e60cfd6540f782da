import { describe, expect, it } from '@jest/globals';
import type { User } from '../src/generated/prisma/client.js';
import { AUTH_PREFIX, createAccount, identitySuite, recordedEvents, serveMessageRequests, uniqueEmail, uniquePhone } from './kit/index.js';

const { admin: ADMIN, mobile: MOBILE } = AUTH_PREFIX;

/**
 * Contract §4 on the wire: the forgot and resend routes write the one request row and answer the
 * same, for an account or for nobody. Forgot and reset by a verified phone only, the hourly message
 * cap and a reset by code taking the same steps for anyone are test/medium/credentials.medium.test.ts.
 */
describe('public credential routes: no account probing', () => {
  // The worker serves requests when a test says so (serveMessageRequests), never in between.
  const identity = identitySuite({ MESSAGE_REQUESTS_INTERVAL_MS: '60000' });

  const post = (path: string, body?: unknown) => identity.request('POST', path, body);

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
  });
});
