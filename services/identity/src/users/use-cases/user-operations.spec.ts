import type { Principal } from '@school/auth';
import { AuditRecorder } from '@school/messaging';
import { EVENT_TYPES } from '@school/contracts';
import type { RpcClient } from '@school/messaging';
import {
  fakeAdminsRepository,
  fakeCredentialsRepository,
  fakeLoginAccountsRepository,
  fakeRevocations,
  fakeSessionsRepository,
  fakeUserDirectoryRepository,
  fakeUsersRepository,
  InMemoryDatabase,
} from '../../../test/fakes/in-memory.js';
import type { UsersRepository } from '../../accounts/users.repository.js';
import { AddressEvents } from '../../accounts/address-events.js';
import { AddressGeography } from '../../accounts/address-geography.js';
import { Profiles } from '../../accounts/profiles.js';
import { CredentialsService } from '../../credentials/credentials.service.js';
import { InvitationsService } from '../../credentials/invitations.service.js';
import type { User } from '../../generated/prisma/client.js';
import type { SigningKeyService } from '../../keys/signing-key.service.js';
import { SessionsService } from '../../sessions/sessions.service.js';
import { CreateUser } from './create-user.js';
import { DeleteUser } from './delete-user.js';
import { UpdateUser } from './update-user.js';

/** These cases send no address, so reference-data is never asked. */
const noAddresses = new AddressGeography({ call: () => Promise.reject(new Error('no address is sent in these cases')) } as unknown as RpcClient);

const OPTIONS = {
  otpSecret: 'unit-test-otp-secret',
  lifetimes: { otpMinutes: 15, inviteDays: 7, emailVerificationHours: 24 },
  publicBaseUrl: 'https://school.test',
  messageRequestsIntervalMs: 1_000,
};

describe('CreateUser, UpdateUser, DeleteUser (contract §6)', () => {
  let db: InMemoryDatabase;
  let revocations: ReturnType<typeof fakeRevocations>;
  let service: { create: CreateUser['execute']; update: UpdateUser['execute']; remove: DeleteUser['execute']; get: Profiles['get'] };
  let admin: User;
  let actor: Principal;

  beforeEach(() => {
    db = new InMemoryDatabase();
    revocations = fakeRevocations();
    const users = fakeUsersRepository(db);
    const credentials = new CredentialsService(fakeCredentialsRepository(db), users, { now: () => new Date() }, db.unitOfWork, OPTIONS);
    const sessions = new SessionsService(fakeSessionsRepository(db), {} as SigningKeyService, revocations, { REFRESH_REUSE_GRACE_SECONDS: 0 });
    service = operations(users, credentials, sessions);
    admin = db.addUser({ email: 'admin@example.com', role: 'admin' });
    actor = { userId: admin.publicId, sessionId: 'admin-session', role: 'admin', surface: 'admin', expiresAt: new Date() };
  });

  function operations(users: UsersRepository, credentials: CredentialsService, sessions: SessionsService): typeof service {
    const create = new CreateUser(
      users,
      new InvitationsService(credentials, db.outbox, OPTIONS),
      db.unitOfWork,
      noAddresses,
      new AddressEvents(db.outbox),
      new AuditRecorder(db.outbox),
    );
    const update = new UpdateUser(
      users,
      fakeAdminsRepository(db),
      fakeUserDirectoryRepository(db),
      sessions,
      credentials,
      db.unitOfWork,
      noAddresses,
      new AddressEvents(db.outbox),
      new AuditRecorder(db.outbox),
    );
    const remove = new DeleteUser(users, fakeAdminsRepository(db), sessions, credentials, db.unitOfWork, new AuditRecorder(db.outbox));
    const profiles = new Profiles(fakeUserDirectoryRepository(db), fakeLoginAccountsRepository(db));
    return {
      create: (body) => create.execute(body),
      update: (actor, publicId, body) => update.execute(actor, publicId, body),
      remove: (actor, publicId) => remove.execute(actor, publicId),
      get: (publicId) => profiles.get(publicId),
    };
  }

  const sessionOf = (user: User, id: string) => db.sessions.push({ id, userId: user.id, revokedAt: null, revokedReason: null } as (typeof db.sessions)[number]);

  it('creates an account without a password and invites it, in one transaction', async () => {
    const profile = await service.create({ email: 'New.Staff@example.com', name: 'New Staff', role: 'staff' });
    expect(profile).toMatchObject({ email: 'new.staff@example.com', role: 'staff', hasPassword: false, emailVerified: false });
    expect(db.eventsOf(EVENT_TYPES.invitationCreated)).toEqual([expect.objectContaining({ userId: profile.publicId, role: 'staff' })]);
    expect(db.credentials).toEqual([expect.objectContaining({ purpose: 'account_invite' })]);
  });

  it('refuses an email or a phone a live account holds, and writes nothing', async () => {
    db.addUser({ email: 'taken@example.com', phone: '+9779800000003' });
    await expect(service.create({ email: 'TAKEN@example.com', name: 'X', role: 'customer' })).rejects.toMatchObject({ code: 'USER_EMAIL_TAKEN' });
    await expect(service.create({ email: 'free@example.com', name: 'X', role: 'customer', phone: '+9779800000003' })).rejects.toMatchObject({ code: 'USER_PHONE_TAKEN' });
    expect(db.users).toHaveLength(2);
    expect(db.events).toEqual([]);
  });

  it('answers a lost race on a live unique index as the pre-check would', async () => {
    const users = fakeUsersRepository(db);
    users.create = async () => {
      throw Object.assign(new Error('duplicate'), { code: '23505', constraint: 'users_phone_live_key' });
    };
    const credentials = new CredentialsService(fakeCredentialsRepository(db), users, { now: () => new Date() }, db.unitOfWork, OPTIONS);
    const racing = operations(users, credentials, {} as SessionsService);
    await expect(racing.create({ email: 'race@example.com', name: 'X', role: 'customer', phone: '+9779800000004' })).rejects.toMatchObject({ code: 'USER_PHONE_TAKEN' });
  });

  it('refuses an admin banning or deleting their own account, before anything else', async () => {
    await expect(service.update(actor, admin.publicId, { banned: true })).rejects.toMatchObject({ code: 'USER_SELF_ACTION' });
    await expect(service.remove(actor, admin.publicId.toUpperCase())).rejects.toMatchObject({ code: 'USER_SELF_ACTION' });
    expect(db.opened).toBe(0);
  });

  it('refuses a ban, delete or role change that would leave no active admin', async () => {
    const other = db.addUser({ email: 'other.admin@example.com', role: 'admin', banned: true });
    const otherActor = { ...actor, userId: other.publicId };
    await expect(service.update(otherActor, admin.publicId, { banned: true })).rejects.toMatchObject({ code: 'USER_LAST_ADMIN' });
    await expect(service.update(otherActor, admin.publicId, { role: 'staff' })).rejects.toMatchObject({ code: 'USER_LAST_ADMIN' });
    await expect(service.remove(otherActor, admin.publicId)).rejects.toMatchObject({ code: 'USER_LAST_ADMIN' });
    expect(db.user(admin.id)).toMatchObject({ role: 'admin', banned: false, deletedAt: null });
  });

  it('bans: ends every session at once and retires the live invitation', async () => {
    const target = (await service.create({ email: 'to.ban@example.com', name: 'X', role: 'customer' })).publicId;
    const user = db.users.find((row) => row.publicId === target)!;
    sessionOf(user, 's-ban');
    expect(await service.update(actor, target, { banned: true })).toMatchObject({ publicId: target });
    expect(db.user(user.id).banned).toBe(true);
    expect(revocations.revoked).toEqual(['s-ban']);
    expect(db.credentials[0]!.retiredAt).not.toBeNull();
  });

  it('ends the sessions on a role change, and unverifies a changed phone', async () => {
    const user = db.addUser({ email: 'role@example.com', role: 'staff', phone: '+9779800000005', phoneVerifiedAt: new Date() });
    sessionOf(user, 's-role');
    await service.update(actor, user.publicId, { role: 'customer', phone: '+9779800000006' });
    expect(db.user(user.id)).toMatchObject({ role: 'customer', phone: '+9779800000006', phoneVerifiedAt: null });
    expect(revocations.revoked).toEqual(['s-role']);
  });

  it('soft-deletes: the account becomes unknown and its sessions end', async () => {
    const user = db.addUser({ email: 'gone@example.com' });
    sessionOf(user, 's-gone');
    await service.remove(actor, user.publicId);
    expect(revocations.revoked).toEqual(['s-gone']);
    await expect(service.get(user.publicId)).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
    await expect(service.update(actor, user.publicId, { name: 'Back' })).rejects.toMatchObject({ code: 'USER_NOT_FOUND' });
  });
});
