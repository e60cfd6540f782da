import type { Principal } from '@school/auth';
import { AuditRecorder } from '@school/messaging';
import { fakeRevocations, fakeSessionsRepository, fakeUsersRepository, InMemoryDatabase } from '../../test/fakes/in-memory.js';
import type { SigningKeyService } from '../keys/signing-key.service.js';
import { SESSION_REVOKE_REASONS } from '../sessions/session-revoke-reason.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { OwnSessionsService } from './own-sessions.service.js';

const later = new Date(Date.now() + 60 * 60_000);
const ids = { current: '00000000-0000-4000-8000-0000000000a1', other: '00000000-0000-4000-8000-0000000000a2', stranger: '00000000-0000-4000-8000-0000000000b1' };

describe('OwnSessionsService (contract §10)', () => {
  let db: InMemoryDatabase;
  let revocations: ReturnType<typeof fakeRevocations>;
  let service: OwnSessionsService;
  let caller: Principal;

  function session(id: string, userId: number, createdAt: Date, fields: Partial<(typeof db.sessions)[number]> = {}) {
    db.sessions.push({
      id,
      userId,
      surface: 'mobile',
      deviceId: null,
      deviceType: null,
      deviceName: null,
      ip: null,
      userAgent: null,
      refreshTokenHash: id,
      expiresAt: later,
      revokedAt: null,
      revokedReason: null,
      createdAt,
      ...fields,
    });
  }

  beforeEach(() => {
    db = new InMemoryDatabase();
    revocations = fakeRevocations();
    const sessions = new SessionsService(fakeSessionsRepository(db), {} as SigningKeyService, revocations, { REFRESH_REUSE_GRACE_SECONDS: 0 });
    service = new OwnSessionsService(fakeUsersRepository(db), sessions, db.unitOfWork, new AuditRecorder(db.outbox));
    const me = db.addUser({ email: 'me@example.com' });
    const stranger = db.addUser({ email: 'stranger@example.com' });
    session(ids.current, me.id, new Date('2026-01-01T00:00:00Z'), { deviceId: 'phone', deviceType: 'ios', deviceName: 'My phone' });
    session(ids.other, me.id, new Date('2026-01-02T00:00:00Z'));
    session('00000000-0000-4000-8000-0000000000a3', me.id, new Date('2026-01-03T00:00:00Z'), { revokedAt: new Date(), revokedReason: 'logout' });
    session(ids.stranger, stranger.id, new Date('2026-01-04T00:00:00Z'));
    caller = { userId: me.publicId, sessionId: ids.current, role: 'customer', surface: 'mobile', expiresAt: later };
  });

  it('lists the caller’s live sessions only, newest first, marking the current one; fields not sent are null', async () => {
    expect(await service.list(caller)).toEqual([
      { id: ids.other, deviceId: null, deviceType: null, deviceName: null, createdAt: '2026-01-02T00:00:00.000Z', lastUsedAt: expect.any(String), current: false },
      { id: ids.current, deviceId: 'phone', deviceType: 'ios', deviceName: 'My phone', createdAt: '2026-01-01T00:00:00.000Z', lastUsedAt: expect.any(String), current: true },
    ]);
  });

  it('ends one session and revokes its access tokens; the current one as a logout', async () => {
    await service.end(caller, ids.other.toUpperCase());
    expect(revocations.revoked).toEqual([ids.other]);
    expect(db.sessions.find((row) => row.id === ids.other)?.revokedReason).toBe(SESSION_REVOKE_REASONS.endedByUser);
    await service.end(caller, ids.current);
    expect(db.sessions.find((row) => row.id === ids.current)?.revokedReason).toBe(SESSION_REVOKE_REASONS.logout);
  });

  it('answers SESSION_NOT_FOUND alike for someone else’s, an ended, an unknown and a malformed id', async () => {
    for (const id of [ids.stranger, '00000000-0000-4000-8000-0000000000a3', '00000000-0000-4000-8000-000000000999', 'not-a-uuid']) {
      await expect(service.end(caller, id)).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND', status: 404 });
    }
    expect(db.sessions.find((row) => row.id === ids.stranger)?.revokedAt).toBeNull();
    expect(revocations.revoked).toEqual([]);
  });

  it('leaves the session live when its revocation cannot be recorded, so a retry still ends it', async () => {
    revocations.revoke = async () => {
      throw new Error('redis down');
    };
    await expect(service.end(caller, ids.other)).rejects.toThrow('redis down');
    expect(db.sessions.find((row) => row.id === ids.other)?.revokedAt).toBeNull();
  });

  it('ends every other session, keeping the caller’s, and counts them', async () => {
    expect(await service.endOthers(caller)).toEqual({ ended: 1 });
    expect(revocations.revoked).toEqual([ids.other]);
    expect(await service.list(caller)).toEqual([expect.objectContaining({ id: ids.current, current: true })]);
    expect(await service.endOthers(caller)).toEqual({ ended: 0 });
  });
});
