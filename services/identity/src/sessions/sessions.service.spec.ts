import { fakeRevocations, fakeSessionsRepository, InMemoryDatabase } from '../../test/fakes/in-memory.js';
import type { SigningKeyService } from '../keys/signing-key.service.js';
import { hashRefreshToken } from './refresh-token.js';
import { SESSION_REVOKE_REASONS } from './session-revoke-reason.js';
import type { RotationOutcome } from './sessions.repository.js';
import { SessionsService } from './sessions.service.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './token-lifetimes.js';

const subject = { id: 7, publicId: '00000000-0000-4000-8000-000000000007', role: 'customer' as const };

describe('SessionsService (contract §4, lessons item 5)', () => {
  let db: InMemoryDatabase;
  let revocations: ReturnType<typeof fakeRevocations>;
  let signed: Record<string, unknown>[];
  let outcome: RotationOutcome | null;

  function sessions(graceSeconds = 0): SessionsService {
    const repository = fakeSessionsRepository(db);
    // The rotation is one SQL statement; here it answers what the statement found.
    repository.rotate = async () => outcome;
    const keys = {
      sign: (claims: Record<string, unknown>) => {
        signed.push(claims);
        return { token: `access-${signed.length}`, expiresAt: new Date() };
      },
    } as unknown as SigningKeyService;
    return new SessionsService(repository, keys, revocations, { REFRESH_REUSE_GRACE_SECONDS: graceSeconds });
  }

  function found(changes: Partial<RotationOutcome>): RotationOutcome {
    return {
      sessionId: 's1',
      rotatedAt: null,
      live: true,
      rotated: false,
      user: {
        ...subject,
        email: 'a@example.com',
        name: 'A',
        phone: null,
        emailVerifiedAt: null,
        phoneVerifiedAt: null,
        createdAt: new Date(),
        hasPassword: true,
        addressProvinceId: null,
        addressDistrictId: null,
        addressMunicipalityId: null,
        addressWard: null,
        addressStreet: null,
      },
      ...changes,
    };
  }

  beforeEach(() => {
    db = new InMemoryDatabase();
    revocations = fakeRevocations();
    signed = [];
    outcome = null;
  });

  it('starts a session storing only the hash of its refresh token; the access token names the session, role and surface', async () => {
    const tokens = await sessions().start(subject, 'mobile', { deviceId: 'd1' }, { ip: '203.0.113.7', userAgent: 'spec' });
    expect(tokens).toMatchObject({ tokenType: 'Bearer', expiresIn: ACCESS_TOKEN_TTL_SECONDS, accessToken: 'access-1' });
    const [stored] = db.sessions;
    expect(stored).toMatchObject({ userId: subject.id, surface: 'mobile', deviceId: 'd1', ip: '203.0.113.7', refreshTokenHash: hashRefreshToken(tokens.refreshToken) });
    expect(JSON.stringify(stored)).not.toContain(tokens.refreshToken);
    expect(signed).toEqual([{ sub: subject.publicId, sid: stored!.id, role: 'customer', srf: 'mobile' }]);
  });

  it('answers a rotated pair and the user for a live token', async () => {
    outcome = found({ rotated: true });
    const refreshed = await sessions().refresh('presented', 'mobile');
    expect(refreshed).toMatchObject({ hasPassword: true, user: { publicId: subject.publicId }, tokens: { accessToken: 'access-1' } });
    expect(refreshed.tokens.refreshToken).not.toBe('presented');
  });

  it('refuses an unknown token or a session no longer live with 401, ending nothing', async () => {
    for (const answer of [null, found({ live: false }), found({ live: false, rotatedAt: new Date(0) })]) {
      outcome = answer;
      await expect(sessions().refresh('presented', 'mobile')).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID', status: 401 });
    }
    expect(revocations.revoked).toEqual([]);
  });

  it('revokes the whole session when a rotated token is presented again after the grace window', async () => {
    db.sessions.push({ id: 's1', userId: subject.id, revokedAt: null, revokedReason: null } as (typeof db.sessions)[number]);
    outcome = found({ rotatedAt: new Date(Date.now() - 1_000) });
    await expect(sessions().refresh('replayed', 'mobile')).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID' });
    expect(db.sessions[0]).toMatchObject({ revokedReason: SESSION_REVOKE_REASONS.reuse });
    expect(revocations.revoked).toEqual(['s1']);
  });

  it('keeps the session for a repeat within the grace window, answering 401 all the same', async () => {
    outcome = found({ rotatedAt: new Date(Date.now() - 1_000) });
    await expect(sessions(10).refresh('repeated', 'mobile')).rejects.toMatchObject({ code: 'AUTH_REFRESH_TOKEN_INVALID' });
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
