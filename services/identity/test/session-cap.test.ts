import { describe, expect, it } from '@jest/globals';
import { UnitOfWork } from '@school/service';
import { SessionsService } from '../src/sessions/sessions.service.js';
import { AUTH_PREFIX, createAccount, identitySuite, me, PASSWORD, refresh, type TokenPairData } from './kit/index.js';

const CAP = 50;
const REFRESH_INVALID = { message: 'Refresh token is invalid or expired', data: null, errorCode: 'AUTH_REFRESH_TOKEN_INVALID' };

/**
 * Contract §10 on real Postgres: an account keeps at most 50 live sessions. Here, that the ended
 * one's tokens are refused at once, like a logout's; the cap under racing logins is
 * test/medium/sessions.medium.test.ts.
 */
describe('live sessions per account', () => {
  const identity = identitySuite();

  let clients = 0;
  /** A login from an address of its own (the per-ip throttles are not under test). */
  async function signIn(customer: { email: string }): Promise<TokenPairData> {
    clients += 1;
    const response = await fetch(`${identity.baseUrl}${AUTH_PREFIX.mobile}/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...identity.forwardedFrom(`198.51.100.${clients}`) },
      body: JSON.stringify({ email: customer.email, password: PASSWORD }),
    });
    const body = (await response.json()) as { data: TokenPairData };
    expect(response.status).toBe(200);
    return body.data;
  }

  const liveSessions = (userId: number) => identity.prisma.session.count({ where: { userId, revokedAt: null } });

  it("ends the least recently used session when a login passes the cap: its tokens are refused at once, like a logout's; the others stay", async () => {
    const customer = await createAccount(identity);
    const leastUsed = await signIn(customer);
    // The cap's other sessions, started as a login starts them but without its argon2id work: which
    // session the cap ends, a refresh counting as a use, is the medium suite's.
    const sessions = identity.app.get(SessionsService, { strict: false });
    for (let started = 1; started < CAP; started += 1) {
      await identity.app.get(UnitOfWork).run((tx) => sessions.start(customer, 'mobile', undefined, { ip: '198.51.100.1', userAgent: 'jest' }, tx));
    }
    expect(await liveSessions(customer.id)).toBe(CAP);

    const beyond = await signIn(customer);
    expect(await liveSessions(customer.id)).toBe(CAP);
    expect((await me(identity, 'mobile', leastUsed.accessToken)).status).toBe(401);
    expect(await refresh(identity, 'mobile', leastUsed.refreshToken)).toMatchObject({ status: 401, body: REFRESH_INVALID });
    expect((await me(identity, 'mobile', beyond.accessToken)).status).toBe(200);
  });
});
