import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isDependencyUnavailable } from '@school/http';
import { UnitOfWork } from '@school/service';
import { type SessionSubject, SessionsService } from '../../src/sessions/sessions.service.js';
import { type IdentityMedium, identityMediumWithSessions, mediumConfig } from './kit.js';

const CAP = 50;
const GRACE_SECONDS = 2;
const CLIENT = { ip: '198.51.100.1', userAgent: 'jest' };

/**
 * Contract §10's sessions against the use case: refresh rotation, reuse within and after the grace
 * window, the live-session cap. Their wire (token pairs, me, logout, surfaces, refused holders) is
 * sessions.test.ts and session-cap.test.ts.
 */
describe('sessions: the use case over its repository (medium)', () => {
  let world: IdentityMedium;
  let sessions: SessionsService;
  let unitOfWork: UnitOfWork;

  beforeAll(async () => {
    world = await identityMediumWithSessions('identity_sessions_medium', [], mediumConfig({ REFRESH_REUSE_GRACE_SECONDS: String(GRACE_SECONDS) }));
    sessions = world.get(SessionsService);
    unitOfWork = world.get(UnitOfWork);
  });

  afterAll(() => world?.close());

  async function account(): Promise<SessionSubject> {
    const user = await world.prisma.user.create({ data: { publicId: randomUUID(), email: `${randomUUID()}@example.com`, name: 'Session Holder', role: 'customer' } });
    return { id: user.id, publicId: user.publicId, role: user.role };
  }
  const login = (subject: SessionSubject) => unitOfWork.run(async (tx) => (await sessions.start(subject, 'mobile', undefined, CLIENT, tx)).tokens);
  const holderOf = (subject: SessionSubject) => async () => subject;
  const refresh = (subject: SessionSubject, refreshToken: string) => sessions.refresh(refreshToken, 'mobile', holderOf(subject));
  const refused = (work: Promise<unknown>) => expect(work).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID' });
  const sessionOf = (userId: number) => world.prisma.session.findFirstOrThrow({ where: { userId }, orderBy: { createdAt: 'desc' } });

  describe('refresh rotation', () => {
    it('lets exactly one of many concurrent refreshes of one token win; the session survives', async () => {
      const subject = await account();
      const first = await login(subject);
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => refresh(subject, first.refreshToken)));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID' });
      expect(await sessionOf(subject.id)).toMatchObject({ revokedAt: null, rotationCount: 1 });
    });

    it(`refuses a repeat of a rotated token within the ${GRACE_SECONDS} s grace window and keeps the session`, async () => {
      const subject = await account();
      const first = await login(subject);
      const second = await refresh(subject, first.refreshToken);
      await refused(refresh(subject, first.refreshToken));
      expect(await sessionOf(subject.id)).toMatchObject({ revokedAt: null });
      await refresh(subject, second.tokens.refreshToken);
    });

    it('revokes the whole session when a rotated token is replayed after the grace window; other sessions stay', async () => {
      const subject = await account();
      const other = await login(subject);
      const first = await login(subject);
      const second = await refresh(subject, first.refreshToken);
      const session = await sessionOf(subject.id);
      // The grace window has passed for the rotated token: its rotation dated back past it, not waited out.
      await world.prisma.refreshToken.updateMany({
        where: { sessionId: session.id, rotatedAt: { not: null } },
        data: { rotatedAt: new Date(Date.now() - GRACE_SECONDS * 1000 - 1_000) },
      });
      await refused(refresh(subject, first.refreshToken));
      expect(await world.prisma.session.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({ revokedReason: 'reuse', revokedAt: expect.any(Date) });
      await refused(refresh(subject, second.tokens.refreshToken));
      await refresh(subject, other.refreshToken);
    });

    it('refuses an unknown token, an expired session and a holder the caller refuses, consuming nothing', async () => {
      const subject = await account();
      await refused(refresh(subject, 'A'.repeat(43)));
      const expired = await login(subject);
      await world.prisma.session.updateMany({ where: { userId: subject.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
      await refused(refresh(subject, expired.refreshToken));
      const held = await login(subject);
      await refused(sessions.refresh(held.refreshToken, 'mobile', async () => null));
      await refused(sessions.refresh(held.refreshToken, 'admin', holderOf(subject)));
      await refresh(subject, held.refreshToken);
    });
  });

  describe(`at most ${CAP} live sessions per account (contract §10)`, () => {
    const live = (userId: number) => world.prisma.session.count({ where: { userId, revokedAt: null } });

    it('ends the least recently used session when a login passes the cap; the others stay', async () => {
      const subject = await account();
      const oldest = await login(subject);
      const leastUsed = await login(subject);
      for (let i = 0; i < CAP - 2; i += 1) await login(subject);
      // A refresh is a use: the oldest session is now the most recently used.
      const renewed = await refresh(subject, oldest.refreshToken);
      expect(await live(subject.id)).toBe(CAP);
      await login(subject);
      expect(await live(subject.id)).toBe(CAP);
      await refused(refresh(subject, leastUsed.refreshToken));
      await refresh(subject, renewed.tokens.refreshToken);
    });

    it(`leaves at most ${CAP} live sessions after ${CAP + 10} logins racing`, async () => {
      const subject = await account();
      // A login the saturated pool could not start is the contract's 503: the client comes back, so each is retried until it lands.
      const landed = async () => {
        for (;;) {
          try {
            return await login(subject);
          } catch (error) {
            if (!isDependencyUnavailable(error)) throw error;
          }
        }
      };
      await Promise.all(Array.from({ length: CAP + 10 }, landed));
      expect(await live(subject.id)).toBe(CAP);
    });
  });
});
