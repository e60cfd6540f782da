import { fakeRevocations, fakeSessionsRepository, fakeUsersRepository, InMemoryDatabase } from '../../test/fakes/in-memory.js';
import { AuditRecorder } from '@school/messaging';
import type { SigningKeyService } from '../keys/signing-key.service.js';
import { SessionsService } from '../sessions/sessions.service.js';
import { UserSessionsService } from './user-sessions.service.js';

const later = new Date(Date.now() + 60 * 60_000);

describe('UserSessionsService (contract §10, administrators)', () => {
  let db: InMemoryDatabase;
  let revocations: ReturnType<typeof fakeRevocations>;
  let service: UserSessionsService;

  function session(id: string, userId: number, createdAt: Date) {
    db.sessions.push({
      id,
      userId,
      surface: 'admin',
      deviceId: 'd',
      deviceType: null,
      deviceName: null,
      ip: null,
      userAgent: null,
      refreshTokenHash: id,
      expiresAt: later,
      revokedAt: null,
      revokedReason: null,
      createdAt,
    });
  }

  beforeEach(() => {
    db = new InMemoryDatabase();
    revocations = fakeRevocations();
    const sessions = new SessionsService(fakeSessionsRepository(db), {} as SigningKeyService, revocations, { REFRESH_REUSE_GRACE_SECONDS: 0 });
    service = new UserSessionsService(fakeUsersRepository(db), sessions, db.unitOfWork, new AuditRecorder(db.outbox));
  });

  it('lists an account’s live sessions newest first, without `current`', async () => {
    const user = db.addUser({ email: 'staff@example.com', role: 'staff' });
    session('00000000-0000-4000-8000-0000000000a1', user.id, new Date('2026-01-01T00:00:00Z'));
    session('00000000-0000-4000-8000-0000000000a2', user.id, new Date('2026-01-02T00:00:00Z'));
    const listed = await service.list(user.publicId);
    expect(listed.map((row) => row.id)).toEqual(['00000000-0000-4000-8000-0000000000a2', '00000000-0000-4000-8000-0000000000a1']);
    expect(listed[0]).not.toHaveProperty('current');
  });

  it('shows a banned account without live sessions', async () => {
    const user = db.addUser({ email: 'banned@example.com', banned: true });
    session('00000000-0000-4000-8000-0000000000a1', user.id, new Date());
    expect(await service.list(user.publicId)).toEqual([]);
  });

  it('answers USER_NOT_FOUND for an unknown, malformed or soft-deleted account', async () => {
    const gone = db.addUser({ email: 'gone@example.com', deletedAt: new Date() });
    for (const publicId of [gone.publicId, '00000000-0000-4000-8000-000000000999', 'nope']) {
      await expect(service.list(publicId)).rejects.toMatchObject({ code: 'USER_NOT_FOUND', status: 404 });
      await expect(service.endAll(publicId)).rejects.toMatchObject({ code: 'USER_NOT_FOUND', status: 404 });
    }
  });

  it('ends every session of the account and counts them', async () => {
    const user = db.addUser({ email: 'staff@example.com', role: 'staff' });
    session('00000000-0000-4000-8000-0000000000a1', user.id, new Date());
    session('00000000-0000-4000-8000-0000000000a2', user.id, new Date());
    expect(await service.endAll(user.publicId)).toEqual({ ended: 2 });
    expect(revocations.revoked.sort()).toEqual(['00000000-0000-4000-8000-0000000000a1', '00000000-0000-4000-8000-0000000000a2']);
    expect(await service.list(user.publicId)).toEqual([]);
  });
});
