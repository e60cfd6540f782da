import { describe, expect, it } from '@jest/globals';
import { RetentionService } from '../src/retention/retention.service.js';
import { SessionsService } from '../src/sessions/sessions.service.js';
import { createAccount, DAY, identitySuite, refresh, sessionIdOf, signIn, type TokenPairData } from './kit/index.js';

describe('retention: ended sessions, outlived refresh tokens and spent credentials are deleted', () => {
  const identity = identitySuite({ RETENTION_DAYS: '30' });

  const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
  const sessionExists = (pair: TokenPairData) => identity.prisma.session.count({ where: { id: sessionIdOf(pair.accessToken) } }).then((count) => count === 1);

  it('keeps live sessions and recently ended ones; deletes those ended before the retention period, with their tokens', async () => {
    const customer = await createAccount(identity);
    const live = await signIn(identity, customer);
    const revokedRecently = await signIn(identity, customer);
    const revokedLongAgo = await signIn(identity, customer);
    const expiredLongAgo = await signIn(identity, customer);
    await identity.prisma.session.update({ where: { id: sessionIdOf(revokedRecently.accessToken) }, data: { revokedAt: daysAgo(29), revokedReason: 'logout' } });
    await identity.prisma.session.update({ where: { id: sessionIdOf(revokedLongAgo.accessToken) }, data: { revokedAt: daysAgo(31), revokedReason: 'logout' } });
    await identity.prisma.session.update({ where: { id: sessionIdOf(expiredLongAgo.accessToken) }, data: { expiresAt: daysAgo(31) } });

    const report = await identity.app.get(RetentionService).prune();

    expect(report.sessions).toBe(2);
    expect(await sessionExists(live)).toBe(true);
    expect(await sessionExists(revokedRecently)).toBe(true);
    expect(await sessionExists(revokedLongAgo)).toBe(false);
    expect(await sessionExists(expiredLongAgo)).toBe(false);
    expect(await identity.prisma.refreshToken.count({ where: { sessionId: sessionIdOf(revokedLongAgo.accessToken) } })).toBe(0);
    expect((await refresh(identity, 'mobile', live.refreshToken)).status).toBe(200);
  });

  it('deletes rotated refresh tokens past their 30-day lifetime and keeps younger ones, which still reveal a replay', async () => {
    const customer = await createAccount(identity);
    const first = await signIn(identity, customer);
    const second = (await refresh(identity, 'mobile', first.refreshToken)).body.data as TokenPairData;
    const third = (await refresh(identity, 'mobile', second.refreshToken)).body.data as TokenPairData;
    const sessionId = sessionIdOf(first.accessToken);
    const tokens = await identity.prisma.refreshToken.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' } });
    expect(tokens).toHaveLength(3);
    await identity.prisma.refreshToken.update({ where: { tokenHash: tokens[0]!.tokenHash }, data: { createdAt: daysAgo(31) } });
    await identity.prisma.refreshToken.update({ where: { tokenHash: tokens[1]!.tokenHash }, data: { createdAt: daysAgo(29) } });

    const report = await identity.app.get(RetentionService).prune();

    expect(report.refreshTokens).toBe(1);
    expect((await identity.prisma.refreshToken.findMany({ where: { sessionId } })).map((token) => token.tokenHash).sort()).toEqual(
      [tokens[1]!.tokenHash, tokens[2]!.tokenHash].sort(),
    );
    // The live token is never pruned, however old: the session refreshes on.
    expect((await refresh(identity, 'mobile', third.refreshToken)).status).toBe(200);
  });

  it('deletes credentials expired, redeemed or retired before the retention period and keeps the rest', async () => {
    const customer = await createAccount(identity);
    const credential = (at: Partial<Record<'expiresAt' | 'redeemedAt' | 'retiredAt', Date>>) =>
      identity.prisma.verificationCredential.create({
        data: {
          userId: customer.id,
          purpose: 'password_reset',
          target: customer.email,
          expiresAt: at.expiresAt ?? daysAgo(-1),
          redeemedAt: at.redeemedAt,
          retiredAt: at.retiredAt,
        },
      });
    const live = await credential({});
    const expiredRecently = await credential({ expiresAt: daysAgo(29) });
    await credential({ expiresAt: daysAgo(31) });
    await credential({ expiresAt: daysAgo(-1), redeemedAt: daysAgo(31) });
    await credential({ expiresAt: daysAgo(-1), retiredAt: daysAgo(31) });

    const report = await identity.app.get(RetentionService).prune();

    expect(report.credentials).toBe(3);
    const left = await identity.prisma.verificationCredential.findMany({ where: { userId: customer.id } });
    expect(left.map((row) => row.id).sort()).toEqual([live.id, expiredRecently.id].sort());
  });

  it('deletes second sign-in steps (contract §12) that ended or expired before the retention period', async () => {
    const staff = await createAccount(identity, { role: 'staff' });
    const challenge = (tokenHash: string, at: { expiresAt: Date; endedAt?: Date }) =>
      identity.prisma.mfaChallenge.create({ data: { tokenHash, userId: staff.id, expiresAt: at.expiresAt, endedAt: at.endedAt ?? null } });
    const suffix = `${staff.id}`.padStart(8, '0');
    await challenge(`live-${suffix}`, { expiresAt: daysAgo(-1) });
    await challenge(`recent-${suffix}`, { expiresAt: daysAgo(29), endedAt: daysAgo(29) });
    await challenge(`expired-${suffix}`, { expiresAt: daysAgo(31) });
    await challenge(`used-${suffix}`, { expiresAt: daysAgo(-1), endedAt: daysAgo(31) });

    const report = await identity.app.get(RetentionService).prune();

    expect(report.mfaChallenges).toBe(2);
    const left = await identity.prisma.mfaChallenge.findMany({ where: { userId: staff.id } });
    expect(left.map((row) => row.tokenHash).sort()).toEqual([`live-${suffix}`, `recent-${suffix}`]);
  });

  it('deletes in batches until none is left', async () => {
    const customer = await createAccount(identity);
    const pairs = [await signIn(identity, customer), await signIn(identity, customer), await signIn(identity, customer)];
    await identity.prisma.session.updateMany({ where: { id: { in: pairs.map((pair) => sessionIdOf(pair.accessToken)) } }, data: { expiresAt: daysAgo(31) } });

    const pruned = await identity.app.get(SessionsService, { strict: false }).prune(daysAgo(30), new Date(), 1);

    expect(pruned.sessions).toBe(3);
    expect(await identity.prisma.session.count({ where: { userId: customer.id } })).toBe(0);
  });
});
