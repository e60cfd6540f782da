import type { Transaction } from '@school/service';
import { fakeRevocations, fakeSessionsRepository, InMemoryDatabase } from '../../test/fakes/in-memory.js';
import type { SigningKeyService } from '../keys/signing-key.service.js';
import { hashRefreshToken } from './refresh-token.js';
import { SESSION_REVOKE_REASONS } from './session-revoke-reason.js';
import type { PresentedToken } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './token-lifetimes.js';

const subject = { id: 7, publicId: '00000000-0000-4000-8000-000000000007', role: 'customer' as const };

describe('SessionsService (contract §4, lessons item 5)', () => {
  let db: InMemoryDatabase;
  let revocations: ReturnType<typeof fakeRevocations>;
  let signed: Record<string, unknown>[];
  let presented: PresentedToken | null;
  let rotations: number;
  let rotates: boolean;

  function sessions(graceSeconds = 0): SessionsService {
    const repository = fakeSessionsRepository(db);
    // Finding the token and rotating it are SQL statements; here they answer what the statements would.
    repository.findPresented = async () => presented;
    repository.rotate = async () => {
      rotations += 1;
      return rotates;
    };
    const keys = {
      sign: (claims: Record<string, unknown>) => {
        signed.push(claims);
        return { token: `access-${signed.length}`, expiresAt: new Date() };
      },
    } as unknown as SigningKeyService;
    return new SessionsService(repository, keys, revocations, { REFRESH_REUSE_GRACE_SECONDS: graceSeconds });
  }

  function found(changes: Partial<PresentedToken> = {}): PresentedToken {
    return { sessionId: 's1', userId: subject.id, rotatedAt: null, live: true, amr: ['pwd'], ...changes };
  }

  /** The caller's answer for the session's user: the subject, or null when it may no longer refresh. */
  const holder = async () => subject;
  const refused = async () => null;

  beforeEach(() => {
    db = new InMemoryDatabase();
    revocations = fakeRevocations();
    signed = [];
    presented = null;
    rotations = 0;
    rotates = true;
  });

  it('starts a session storing only the hash of its refresh token; the access token names the session, role and surface', async () => {
    const { tokens, deviceIsNew } = await sessions().start(subject, 'mobile', { deviceId: 'd1' }, { ip: '203.0.113.7', userAgent: 'spec' }, {} as Transaction);
    expect(deviceIsNew).toBe(true);
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS, accessToken: 'access-1' });
    const [stored] = db.sessions;
    expect(stored).toMatchObject({ userId: subject.id, surface: 'mobile', deviceId: 'd1', ip: '203.0.113.7', refreshTokenHash: hashRefreshToken(tokens.refreshToken) });
    expect(JSON.stringify(stored)).not.toContain(tokens.refreshToken);
    expect(signed).toEqual([{ sub: subject.publicId, sid: stored!.id, role: 'customer', srf: 'mobile', amr: ['pwd'] }]);
    expect(stored).toMatchObject({ amr: ['pwd'] });
  });

  it('answers a rotated pair and the holder for a live token', async () => {
    presented = found();
    const refreshed = await sessions().refresh('presented', 'mobile', holder);
    expect(refreshed).toMatchObject({ holder: subject, tokens: { accessToken: 'access-1' } });
    expect(refreshed.tokens.refreshToken).not.toBe('presented');
    expect(rotations).toBe(1);
  });

  it("keeps the session's amr on a refresh (contract §12)", async () => {
    presented = found({ amr: ['pwd', 'otp'] });
    await sessions().refresh('presented', 'mobile', holder);
    expect(signed.at(-1)).toMatchObject({ amr: ['pwd', 'otp'] });
  });

  it('refuses an unknown token, a session no longer live or a holder refused with 401, rotating and ending nothing', async () => {
    for (const [answer, holderOf] of [
      [null, holder],
      [found({ live: false }), holder],
      [found({ live: false, rotatedAt: new Date(0) }), holder],
      [found(), refused],
      [found({ rotatedAt: new Date(0) }), refused],
    ] as const) {
      presented = answer;
      await expect(sessions().refresh('presented', 'mobile', holderOf)).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID', status: 401 });
    }
    expect(rotations).toBe(0);
    expect(revocations.revoked).toEqual([]);
  });

  it('keeps the session when a concurrent refresh spent the token first, answering 401', async () => {
    presented = found();
    rotates = false;
    await expect(sessions().refresh('presented', 'mobile', holder)).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID' });
    expect(revocations.revoked).toEqual([]);
  });

  it('revokes the whole session when a rotated token is presented again after the grace window', async () => {
    db.sessions.push({ id: 's1', userId: subject.id, revokedAt: null, revokedReason: null } as (typeof db.sessions)[number]);
    presented = found({ rotatedAt: new Date(Date.now() - 1_000) });
    await expect(sessions().refresh('replayed', 'mobile', holder)).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID' });
    expect(db.sessions[0]).toMatchObject({ revokedReason: SESSION_REVOKE_REASONS.reuse });
    expect(revocations.revoked).toEqual(['s1']);
    expect(rotations).toBe(0);
  });

  it('keeps the session for a repeat within the grace window, answering 401 all the same', async () => {
    presented = found({ rotatedAt: new Date(Date.now() - 1_000) });
    await expect(sessions(10).refresh('repeated', 'mobile', holder)).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID' });
    expect(revocations.revoked).toEqual([]);
  });

  it('ends every session of a user in the caller transaction, writing each to the revocation store', async () => {
    for (const [id, userId] of [
      ['a', subject.id],
      ['b', subject.id],
      ['c', 99],
    ] as const) {
      db.sessions.push({ id, userId, revokedAt: null, revokedReason: null } as (typeof db.sessions)[number]);
    }
    await db.unitOfWork.run((tx) => sessions().revokeAllForUser(tx, subject.id, SESSION_REVOKE_REASONS.ban));
    expect(revocations.revoked.sort()).toEqual(['a', 'b']);
    expect(db.sessions.find((row) => row.id === 'c')!.revokedAt).toBeNull();
  });

  it('rolls the revocation back when the revocation store cannot be written (fail closed, 503 upstream)', async () => {
    db.sessions.push({ id: 'a', userId: subject.id, revokedAt: null, revokedReason: null } as (typeof db.sessions)[number]);
    revocations.revoke = async () => {
      throw new Error('redis down');
    };
    await expect(db.unitOfWork.run((tx) => sessions().revokeAllForUser(tx, subject.id, SESSION_REVOKE_REASONS.ban))).rejects.toThrow('redis down');
    expect(db.sessions[0]!.revokedAt).toBeNull();
  });

  it('logs out: ends the session and writes the store even when the row was already revoked', async () => {
    await sessions().end('gone', SESSION_REVOKE_REASONS.logout);
    expect(revocations.revoked).toEqual(['gone']);
  });
});
