import type { Principal } from '@school/auth';
import { AuditRecorder } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import {
  fakePasswordHasher,
  fakeProviderAccountsRepository,
  fakeRevocations,
  fakeSessionsRepository,
  fakeLoginAccountsRepository,
  InMemoryDatabase,
} from '../../../test/fakes/in-memory.js';
import type { SigningKeyService } from '../../keys/signing-key.service.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { SetPassword } from './set-password.js';

const PASSWORD = 'Str0ng!pass';
const signer = {} as SigningKeyService;

describe('SetPassword (spec §4.2)', () => {
  let db: InMemoryDatabase;
  let revocations: ReturnType<typeof fakeRevocations>;
  let service: SetPassword;

  beforeEach(() => {
    db = new InMemoryDatabase();
    revocations = fakeRevocations();
    const sessions = new SessionsService(fakeSessionsRepository(db), signer, revocations, { REFRESH_REUSE_GRACE_SECONDS: 0 });
    service = new SetPassword(
      fakeLoginAccountsRepository(db),
      fakeProviderAccountsRepository(db),
      fakePasswordHasher(),
      sessions,
      db.outbox,
      db.unitOfWork,
      new AuditRecorder(db.outbox),
    );
  });

  function principalOf(publicId: string): Principal {
    return { userId: publicId, sessionId: 'this-session', role: 'customer', surface: 'mobile', expiresAt: new Date() };
  }

  it('needs the current password when one exists, and refuses a wrong one', async () => {
    const user = db.addUser({ email: 'set@example.com' }, `hashed:${PASSWORD}`);
    await expect(service.execute(principalOf(user.publicId), { newPassword: 'N3w!Brass-Kettle' })).rejects.toMatchObject({ code: 'AUTH_CURRENT_PASSWORD_REQUIRED', status: 400 });
    await expect(service.execute(principalOf(user.publicId), { currentPassword: 'Wr0ng!pass', newPassword: 'N3w!Brass-Kettle' })).rejects.toMatchObject({
      code: 'AUTH_INVALID_CREDENTIALS',
      status: 401,
    });
    expect(db.passwords.get(user.id)).toBe(`hashed:${PASSWORD}`);
  });

  it('changes it, ends the other sessions but this one, and tells the holder', async () => {
    const user = db.addUser({ email: 'change@example.com' }, `hashed:${PASSWORD}`);
    for (const id of ['this-session', 'other-session']) db.sessions.push({ id, userId: user.id, revokedAt: null, revokedReason: null } as (typeof db.sessions)[number]);
    await service.execute(principalOf(user.publicId), { currentPassword: PASSWORD, newPassword: 'N3w!Brass-Kettle' });
    expect(db.passwords.get(user.id)).toBe('hashed:N3w!Brass-Kettle');
    expect(revocations.revoked).toEqual(['other-session']);
    expect(db.eventsOf(EVENT_TYPES.passwordChanged)).toEqual([expect.objectContaining({ userId: user.publicId, email: user.email })]);
  });

  it('sets a first password without a current one', async () => {
    const user = db.addUser({ email: 'first@example.com' });
    await service.execute(principalOf(user.publicId), { newPassword: 'N3w!Brass-Kettle' });
    expect(db.passwords.get(user.id)).toBe('hashed:N3w!Brass-Kettle');
  });

  it('refuses the token of an account deleted since', async () => {
    const user = db.addUser({ email: 'deleted@example.com', deletedAt: new Date() }, `hashed:${PASSWORD}`);
    await expect(service.execute(principalOf(user.publicId), { currentPassword: PASSWORD, newPassword: 'N3w!Brass-Kettle' })).rejects.toMatchObject({
      code: 'AUTH_UNAUTHENTICATED',
    });
  });
});
