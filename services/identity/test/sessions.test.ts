import { describe, expect, it } from '@jest/globals';
import { parseConfig } from '@school/config';
import { identityEnv } from '../src/config.js';
import { AUTH_PREFIX, createAccount, identitySuite, me, refresh, sessionIdOf, signIn, type TokenPairData } from './kit/index.js';

const GRACE_SECONDS = 2;
const REFRESH_INVALID = { message: 'Refresh token is invalid or expired', data: null, errorCode: 'AUTH_REFRESH_TOKEN_INVALID' };
const UNAUTHENTICATED = { message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' };

// The rotation's rules against the use case (concurrent refreshes, reuse, refused tokens) are test/medium/sessions.medium.test.ts.
describe('sessions: refresh rotation, reuse detection, logout', () => {
  const identity = identitySuite({ REFRESH_REUSE_GRACE_SECONDS: String(GRACE_SECONDS) });

  const sessionOf = (pair: TokenPairData) => identity.prisma.session.findUniqueOrThrow({ where: { id: sessionIdOf(pair.accessToken) } });

  it('rotates both tokens on every refresh, keeping the session', async () => {
    const customer = await createAccount(identity);
    const first = await signIn(identity, customer);
    const answer = await refresh(identity, 'mobile', first.refreshToken);
    expect(answer.status).toBe(200);
    const second = answer.body.data as TokenPairData;
    expect(second).toMatchObject({ tokenType: 'Bearer', expiresIn: 900, user: { publicId: customer.publicId, hasPassword: true } });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(Date.parse(second.accessTokenExpiresAt)).toBeGreaterThanOrEqual(Date.parse(first.accessTokenExpiresAt));
    expect(sessionIdOf(second.accessToken)).toBe(sessionIdOf(first.accessToken));
    expect((await me(identity, 'mobile', second.accessToken)).status).toBe(200);
    expect(await sessionOf(second)).toMatchObject({ rotationCount: 1, revokedAt: null });

    const third = (await refresh(identity, 'mobile', second.refreshToken)).body.data as TokenPairData;
    expect(await sessionOf(third)).toMatchObject({ rotationCount: 2, revokedAt: null });
    expect(Date.parse(third.refreshTokenExpiresAt)).toBeGreaterThanOrEqual(Date.parse(second.refreshTokenExpiresAt));
  });

  it('works the same on the admin surface', async () => {
    const staff = await createAccount(identity, { role: 'staff' });
    const pair = await signIn(identity, staff);
    const answer = await refresh(identity, 'admin', pair.refreshToken);
    expect(answer.status).toBe(200);
    expect((answer.body.data as TokenPairData).user).toMatchObject({ role: 'staff' });
  });

  it('refuses a refresh token on the other surface without consuming it', async () => {
    const admin = await createAccount(identity, { role: 'admin' });
    const customer = await createAccount(identity);
    const adminPair = await signIn(identity, admin);
    const customerPair = await signIn(identity, customer);
    expect(await refresh(identity, 'mobile', adminPair.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });
    expect(await refresh(identity, 'admin', customerPair.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });
    expect((await refresh(identity, 'admin', adminPair.refreshToken)).status).toBe(200);
    expect((await refresh(identity, 'mobile', customerPair.refreshToken)).status).toBe(200);
  });

  it('lets exactly one of two parallel refreshes of one token win; the session survives', async () => {
    const customer = await createAccount(identity);
    const pair = await signIn(identity, customer);
    const answers = await Promise.all([refresh(identity, 'mobile', pair.refreshToken), refresh(identity, 'mobile', pair.refreshToken)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect(answers.find((answer) => answer.status === 401)!.body).toEqual(REFRESH_INVALID);

    const winner = answers.find((answer) => answer.status === 200)!.body.data as TokenPairData;
    expect(await sessionOf(winner)).toMatchObject({ revokedAt: null, rotationCount: 1 });
    expect((await me(identity, 'mobile', winner.accessToken)).status).toBe(200);
    expect((await me(identity, 'mobile', pair.accessToken)).status).toBe(200);
    expect((await refresh(identity, 'mobile', winner.refreshToken)).status).toBe(200);
  });

  it(`answers a repeat of a rotated token within the ${GRACE_SECONDS} s grace window with 401 and keeps the session`, async () => {
    const customer = await createAccount(identity);
    const first = await signIn(identity, customer);
    const second = (await refresh(identity, 'mobile', first.refreshToken)).body.data as TokenPairData;
    expect(await refresh(identity, 'mobile', first.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });
    expect(await sessionOf(second)).toMatchObject({ revokedAt: null });
    expect((await me(identity, 'mobile', second.accessToken)).status).toBe(200);
    expect((await refresh(identity, 'mobile', second.refreshToken)).status).toBe(200);
  });

  it('revokes the whole session when a rotated token is replayed after the grace window', async () => {
    const customer = await createAccount(identity);
    const first = await signIn(identity, customer);
    const second = (await refresh(identity, 'mobile', first.refreshToken)).body.data as TokenPairData;
    // The grace window has passed for the rotated token: its rotation dated back past it, not waited out.
    const aged = await identity.prisma.refreshToken.updateMany({
      where: { sessionId: sessionIdOf(second.accessToken), rotatedAt: { not: null } },
      data: { rotatedAt: new Date(Date.now() - GRACE_SECONDS * 1000 - 1_000) },
    });
    expect(aged.count).toBe(1);

    expect(await refresh(identity, 'mobile', first.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });
    expect(await sessionOf(second)).toMatchObject({ revokedReason: 'reuse', revokedAt: expect.any(Date) });
    // The legitimate holder's pair is dead too: the access token at once, the refresh token as well.
    expect(await me(identity, 'mobile', second.accessToken)).toEqual({ status: 401, body: UNAUTHENTICATED });
    expect(await refresh(identity, 'mobile', second.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });
    // Other sessions of the person are untouched.
    const other = await signIn(identity, customer);
    expect((await me(identity, 'mobile', other.accessToken)).status).toBe(200);
  });

  it('makes the grace window configurable and none by default (contract §4: any repeat revokes)', () => {
    expect(parseConfig(identityEnv, {}).REFRESH_REUSE_GRACE_SECONDS).toBe(0);
    expect(parseConfig(identityEnv, { REFRESH_REUSE_GRACE_SECONDS: '0' }).REFRESH_REUSE_GRACE_SECONDS).toBe(0);
    expect(() => parseConfig(identityEnv, { REFRESH_REUSE_GRACE_SECONDS: '-1' })).toThrow(/^Invalid configuration: REFRESH_REUSE_GRACE_SECONDS: /);
  });

  it('refuses unknown, expired, banned and deleted sessions', async () => {
    expect(await refresh(identity, 'mobile', 'A'.repeat(43))).toEqual({ status: 401, body: REFRESH_INVALID });

    const expired = await signIn(identity, await createAccount(identity));
    await identity.prisma.session.update({ where: { id: sessionIdOf(expired.accessToken) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await refresh(identity, 'mobile', expired.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });

    const bannedUser = await createAccount(identity);
    const banned = await signIn(identity, bannedUser);
    await identity.prisma.user.update({ where: { id: bannedUser.id }, data: { banned: true } });
    expect(await refresh(identity, 'mobile', banned.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });

    const deletedUser = await createAccount(identity);
    const deleted = await signIn(identity, deletedUser);
    await identity.prisma.user.update({ where: { id: deletedUser.id }, data: { deletedAt: new Date() } });
    expect(await refresh(identity, 'mobile', deleted.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });

    // The refused tokens were not consumed: nothing rotated.
    expect(await identity.prisma.refreshToken.count({ where: { sessionId: sessionIdOf(banned.accessToken), rotatedAt: { not: null } } })).toBe(0);
  });

  it('refuses a refresh of a session whose user moved to a role the surface does not admit', async () => {
    const staff = await createAccount(identity, { role: 'staff' });
    const pair = await signIn(identity, staff);
    await identity.prisma.user.update({ where: { id: staff.id }, data: { role: 'customer' } });
    expect(await refresh(identity, 'admin', pair.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });
  });

  it('refuses a bad refresh body with 400 VALIDATION_FAILED', async () => {
    for (const body of [{}, { refreshToken: '' }, { refreshToken: 12 }, { refreshToken: 'x', extra: 1 }, { refreshToken: 'x'.repeat(513) }]) {
      const answer = await identity.request('POST', `${AUTH_PREFIX.mobile}/refresh`, body);
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    }
  });

  describe('logout', () => {
    it.each(['admin', 'mobile'] as const)('on the %s surface ends the current session at once', async (surface) => {
      const user = await createAccount(identity, { role: surface === 'admin' ? 'admin' : 'customer' });
      const pair = await signIn(identity, user);
      const other = await signIn(identity, user);

      const answer = await identity.request('DELETE', `${AUTH_PREFIX[surface]}/logout`, undefined, pair.accessToken);
      expect(answer).toEqual({ status: 200, body: { message: 'Logged out', data: null, errorCode: null } });

      expect(await me(identity, surface, pair.accessToken)).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect(await refresh(identity, surface, pair.refreshToken)).toEqual({ status: 401, body: REFRESH_INVALID });
      expect(await sessionOf(pair)).toMatchObject({ revokedReason: 'logout' });
      expect((await identity.request('DELETE', `${AUTH_PREFIX[surface]}/logout`, undefined, pair.accessToken)).status).toBe(401);
      // Only that device is signed out.
      expect((await me(identity, surface, other.accessToken)).status).toBe(200);
    });

    it('requires a valid bearer token', async () => {
      expect(await identity.request('DELETE', `${AUTH_PREFIX.admin}/logout`)).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect(await identity.request('DELETE', `${AUTH_PREFIX.mobile}/logout`, undefined, 'not.a.token')).toEqual({ status: 401, body: UNAUTHENTICATED });
    });
  });
});
