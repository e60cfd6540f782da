import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { Principal } from '@school/auth';
import { createUserBody, EVENT_TYPES, forgotPasswordBody, resetPasswordBody, updateUserBody } from '@school/contracts';
import { UnitOfWork } from '@school/service';
import { AccountsModule } from '../../src/accounts/accounts.module.js';
import { ResetPassword } from '../../src/auth/use-cases/reset-password.js';
import { CredentialsModule } from '../../src/credentials/credentials.module.js';
import { InvitationsService } from '../../src/credentials/invitations.service.js';
import { MessageRequestsWorker } from '../../src/credentials/message-requests.worker.js';
import { PasswordResetService } from '../../src/credentials/password-reset/password-reset.service.js';
import type { User } from '../../src/generated/prisma/client.js';
import { LoginBackoffModule } from '../../src/login-backoff/login-backoff.module.js';
import { MfaModule } from '../../src/mfa/mfa.module.js';
import { PasswordsModule } from '../../src/passwords/passwords.module.js';
import { SessionsService } from '../../src/sessions/sessions.service.js';
import { CreateUser } from '../../src/users/use-cases/create-user.js';
import { DeleteUser } from '../../src/users/use-cases/delete-user.js';
import { UpdateUser } from '../../src/users/use-cases/update-user.js';
import { type AccountRows, NEW_PASSWORD, uniqueEmail, writeAccount } from '../kit/accounts.js';
import { tokenOf } from '../kit/credentials.js';
import { type GeographyStandIn, geographyStandIn, KATHMANDU, until } from '../kit/geography.js';
import { type IdentityMediumWithSessions, identityMediumWithSessions, mediumConfig } from './kit.js';

const CLIENT = { ip: '198.51.100.12', userAgent: 'jest' };
const HOUR = 3_600_000;

/**
 * The administrator's operations on accounts (contract §6) against the use cases: creating (the
 * email's uniqueness, races, the invitation), editing (an unverified new phone, sessions ended by a
 * ban or a role change), deleting, an admin's own account, the last active admin, and the
 * credentials a ban or delete retires (contract §4), the address reference-data checks (contract
 * §6; its stand-in on the suite's broker prefix) and its event. The wire (guards, envelopes, validation,
 * a ban refused at once, one refusal of each rule, reference-data not answering) is users.test.ts,
 * users-account-control.test.ts and users-address.test.ts.
 */
describe('users: the use cases over their repositories (medium)', () => {
  let world: IdentityMediumWithSessions;

  beforeAll(async () => {
    world = await identityMediumWithSessions(
      'identity_users_medium',
      [CreateUser, UpdateUser, DeleteUser, ResetPassword],
      mediumConfig(),
      [AccountsModule, PasswordsModule, LoginBackoffModule, CredentialsModule, MfaModule],
      { rpc: true },
    );
  });

  afterAll(() => world?.close());

  const account = (rows: AccountRows = {}) => writeAccount(world.prisma, rows);
  /** The principal of an access token of `user`'s, as the guard hands it to the route. */
  const actorOf = (user: User): Principal => ({ userId: user.publicId, sessionId: randomUUID(), role: user.role, surface: 'admin', expiresAt: new Date(Date.now() + HOUR) });
  /** Each as the route hands it over: the body parsed by the route's own schema. */
  const create = (body: Record<string, unknown>) => world.get(CreateUser).execute(createUserBody.parse(body));
  const update = (actor: User, target: User, body: Record<string, unknown>) => world.get(UpdateUser).execute(actorOf(actor), target.publicId, updateUserBody.parse(body));
  const remove = (actor: User, target: User) => world.get(DeleteUser).execute(actorOf(actor), target.publicId);
  const outcome = (work: Promise<unknown>) =>
    work.then(
      () => 'done',
      (error: { code?: string }) => error.code ?? error,
    );
  const userOf = (user: User) => world.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
  const startSession = (user: User) =>
    world.get(UnitOfWork).run((tx) => world.get(SessionsService).start(user, user.role === 'customer' ? 'mobile' : 'admin', undefined, CLIENT, tx));
  const sessionsOf = (user: User) => world.prisma.session.findMany({ where: { userId: user.id } });
  const activeAdmins = () => world.prisma.user.count({ where: { role: 'admin', banned: false, deletedAt: null } });

  describe('creating', () => {
    it('normalises the email and name and sends the invitation, valid 7 days', async () => {
      const email = uniqueEmail('New.Person').replace('new.person', 'New.Person');
      const profile = await create({ email: `  ${email} `, name: '  Asha Rai ', role: 'staff', phone: '+9779812345678' });
      expect(profile).toMatchObject({ email: email.toLowerCase(), name: 'Asha Rai', phone: '+9779812345678', hasPassword: false, emailVerified: false });
      const user = await world.prisma.user.findUniqueOrThrow({ where: { publicId: profile.publicId } });
      const invites = await world.prisma.verificationCredential.findMany({ where: { userId: user.id, purpose: 'account_invite' } });
      expect(invites).toHaveLength(1);
      expect(invites[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(7 * 24 * HOUR - 60_000);
      expect(await world.recorded(EVENT_TYPES.invitationCreated)).toContainEqual(expect.objectContaining({ userId: profile.publicId, email: email.toLowerCase() }));
    });

    it('refuses an email a live account has, compared case-insensitively, and reuses a soft-deleted one', async () => {
      const existing = await account();
      expect(await outcome(create({ email: existing.email.toUpperCase(), name: 'Dup', role: 'customer' }))).toBe('USER_EMAIL_TAKEN');
      const gone = await account({ deleted: true });
      expect(await outcome(create({ email: gone.email, name: 'Again', role: 'customer' }))).toBe('done');
    });

    it('lets only one of two concurrent creates of one email win', async () => {
      const email = uniqueEmail('race');
      const outcomes = await Promise.all([
        outcome(create({ email, name: 'First', role: 'customer' })),
        outcome(create({ email: email.toUpperCase(), name: 'Second', role: 'customer' })),
      ]);
      expect(outcomes.sort()).toEqual(['USER_EMAIL_TAKEN', 'done']);
      expect(await world.prisma.user.count({ where: { email } })).toBe(1);
    });
  });

  describe('editing and deleting', () => {
    let admin: User;

    beforeAll(async () => {
      admin = await account({ role: 'admin' });
    });

    it('changes name, phone and role; a new phone is unverified, the same one stays', async () => {
      const user = await account();
      await world.prisma.user.update({ where: { id: user.id }, data: { phone: '+9779800000000', phoneVerifiedAt: new Date() } });
      expect(await update(admin, user, { name: 'Renamed', phone: '+9779811111111' })).toMatchObject({
        name: 'Renamed',
        phone: '+9779811111111',
        phoneVerified: false,
        role: 'customer',
      });
      expect(await update(admin, user, { phone: '+9779811111111' })).toMatchObject({ phone: '+9779811111111' });
      expect(await update(admin, user, { phone: null })).toMatchObject({ phone: null });
      expect(await update(admin, user, { role: 'staff' })).toMatchObject({ role: 'staff' });
    });

    it('ends every session of an account it bans, with the reason ban; unbanning lets it start one again', async () => {
      const user = await account();
      await startSession(user);
      await startSession(user);
      await update(admin, user, { banned: true });
      expect(await sessionsOf(user)).toEqual([expect.objectContaining({ revokedReason: 'ban' }), expect.objectContaining({ revokedReason: 'ban' })]);
      expect(await userOf(user)).toMatchObject({ banned: true });
      await update(admin, user, { banned: false });
      expect(await userOf(user)).toMatchObject({ banned: false });
    });

    it('ends the sessions of an account whose role changes, and only then', async () => {
      const staff = await account({ role: 'staff' });
      await startSession(staff);
      await update(admin, staff, { name: 'Same Role' });
      expect(await sessionsOf(staff)).toEqual([expect.objectContaining({ revokedAt: null })]);
      await update(admin, staff, { role: 'admin' });
      expect(await sessionsOf(staff)).toEqual([expect.objectContaining({ revokedAt: expect.any(Date) })]);
    });

    it('soft-deletes: sessions end, the account is unknown to the next edit or delete', async () => {
      const user = await account();
      await startSession(user);
      await remove(admin, user);
      expect(await userOf(user)).toMatchObject({ deletedAt: expect.any(Date) });
      expect(await sessionsOf(user)).toEqual([expect.objectContaining({ revokedAt: expect.any(Date) })]);
      expect(await outcome(remove(admin, user))).toBe('USER_NOT_FOUND');
      expect(await outcome(update(admin, user, { name: 'X' }))).toBe('USER_NOT_FOUND');
    });
  });

  describe('an admin cannot ban or delete their own account', () => {
    it('refuses a self ban and a self delete (checked first, before the last-admin rule) and changes nothing', async () => {
      await world.prisma.user.updateMany({ where: { role: 'admin' }, data: { role: 'staff' } });
      const me = await account({ role: 'admin' });
      expect(await outcome(update(me, me, { banned: true }))).toBe('USER_SELF_ACTION');
      expect(await outcome(world.get(UpdateUser).execute(actorOf(me), me.publicId.toUpperCase(), updateUserBody.parse({ banned: true, name: 'X' })))).toBe('USER_SELF_ACTION');
      expect(await outcome(remove(me, me))).toBe('USER_SELF_ACTION');
      expect(await userOf(me)).toMatchObject({ banned: false, deletedAt: null, name: 'Test Person' });
    });

    it('still lets an admin edit their own account otherwise', async () => {
      const me = await account({ role: 'admin' });
      expect(await update(me, me, { name: 'Still Me', banned: false })).toMatchObject({ name: 'Still Me' });
    });
  });

  describe('no change may leave the system without an active admin', () => {
    beforeEach(async () => {
      await world.prisma.user.updateMany({ where: { role: 'admin' }, data: { role: 'staff' } });
    });

    /** Exactly `count` active admins: every other admin is demoted first. */
    async function onlyAdmins(count: number): Promise<User[]> {
      await world.prisma.user.updateMany({ where: { role: 'admin' }, data: { role: 'staff' } });
      return Promise.all(Array.from({ length: count }, () => account({ role: 'admin' })));
    }

    it('refuses the only active admin demoting themselves; banned and deleted admins do not count', async () => {
      const [me] = (await onlyAdmins(1)) as [User];
      await account({ role: 'admin', banned: true });
      await account({ role: 'admin', deleted: true });
      expect(await outcome(update(me, me, { role: 'staff' }))).toBe('USER_LAST_ADMIN');
      expect(await activeAdmins()).toBe(1);
    });

    it('lets an admin step down, be banned or be deleted while another active admin remains', async () => {
      const [first, second] = (await onlyAdmins(2)) as [User, User];
      await update(first, first, { role: 'staff' });
      expect(await outcome(update(second, second, { role: 'customer' }))).toBe('USER_LAST_ADMIN');
      const [third, fourth] = (await onlyAdmins(2)) as [User, User];
      await update(third, fourth, { banned: true });
      expect(await outcome(update(third, third, { role: 'customer' }))).toBe('USER_LAST_ADMIN');
      const [fifth, sixth] = (await onlyAdmins(2)) as [User, User];
      await remove(fifth, sixth);
      expect(await activeAdmins()).toBe(1);
    });

    it('lets exactly one of two admins stepping down at once succeed', async () => {
      for (let round = 0; round < 3; round += 1) {
        const admins = await onlyAdmins(2);
        const outcomes = await Promise.all(admins.map((user) => outcome(update(user, user, { role: 'staff' }))));
        expect(outcomes.sort()).toEqual(['USER_LAST_ADMIN', 'done']);
        expect(await activeAdmins()).toBe(1);
      }
    });

    it.each(['ban', 'delete'] as const)('never lets two admins who %s each other at once leave no active admin', async (change) => {
      const [first, second] = (await onlyAdmins(2)) as [User, User];
      const act = (actor: User, target: User) => outcome(change === 'ban' ? update(actor, target, { banned: true }) : remove(actor, target));
      // Without the guard's check of the token (whose session the winner's ban ends) the loser meets the rule.
      expect((await Promise.all([act(first, second), act(second, first)])).sort()).toEqual(['USER_LAST_ADMIN', 'done']);
      expect(await activeAdmins()).toBe(1);
    });
  });

  describe('banning or deleting an account retires its live reset and invitation credentials (contract §4)', () => {
    let admin: User;

    beforeAll(async () => {
      admin = await account({ role: 'admin' });
    });

    const reset = (body: Record<string, unknown>) => outcome(world.get(ResetPassword).execute(resetPasswordBody.parse({ ...body, password: NEW_PASSWORD })));
    async function forgot(user: User): Promise<{ token: string; otp: string }> {
      await world.get(PasswordResetService).forgot(forgotPasswordBody.parse({ email: user.email }));
      await world.get(MessageRequestsWorker).drain();
      const event = (await world.recorded(EVENT_TYPES.passwordResetRequested)).filter((payload) => payload['userId'] === user.publicId).at(-1);
      const delivery = event?.['delivery'] as { channel: string; resetUrl?: string } | undefined;
      if (delivery?.resetUrl === undefined) throw new Error('expected an email delivery');
      return { token: tokenOf(delivery.resetUrl), otp: event!['otp'] as string };
    }

    it('a reset link and code issued before a ban stay dead after the unban', async () => {
      const user = await account();
      const { token, otp } = await forgot(user);
      await update(admin, user, { banned: true });
      expect(await reset({ token })).toBe('AUTH_VERIFICATION_CODE_INVALID');
      await update(admin, user, { banned: false });
      expect(await reset({ token })).toBe('AUTH_VERIFICATION_CODE_INVALID');
      expect(await reset({ email: user.email, otp })).toBe('AUTH_VERIFICATION_CODE_INVALID');
    });

    it('an invitation issued before a ban no longer sets a password', async () => {
      const user = await account();
      await world.get(UnitOfWork).run((tx) => world.get(InvitationsService).issue(tx, user));
      const invitation = (await world.recorded(EVENT_TYPES.invitationCreated)).filter((payload) => payload['userId'] === user.publicId).at(-1);
      await update(admin, user, { banned: true });
      await update(admin, user, { banned: false });
      expect(await reset({ token: tokenOf(invitation!['inviteUrl'] as string) })).toBe('AUTH_VERIFICATION_CODE_INVALID');
    });

    it('a soft delete retires them too, and leaves other credentials of the person alone', async () => {
      const user = await account();
      await forgot(user);
      await world.prisma.verificationCredential.create({
        data: { userId: user.id, purpose: 'email_verification', tokenHash: 'f'.repeat(64), target: user.email, expiresAt: new Date(Date.now() + 60_000) },
      });
      await remove(admin, user);
      const credentials = await world.prisma.verificationCredential.findMany({ where: { userId: user.id } });
      expect(credentials.filter((credential) => credential.purpose === 'password_reset').every((credential) => credential.retiredAt !== null)).toBe(true);
      expect(credentials.find((credential) => credential.purpose === 'email_verification')).toMatchObject({ retiredAt: null });
    });
  });

  describe('the address (contract §6): checked with reference-data, its committed value told through the outbox', () => {
    let geography: GeographyStandIn;
    let admin: User;

    beforeAll(async () => {
      admin = await account({ role: 'admin' });
      geography = geographyStandIn(world.brokerPrefix!);
      await geography.start();
    });

    afterAll(() => geography?.close());

    const createAddressed = async (address: unknown, email = uniqueEmail('addressed')) => create({ email, name: 'Sita Sharma', role: 'customer', address });
    const addressColumnsOf = (publicId: string) =>
      world.prisma.user.findUniqueOrThrow({
        where: { publicId },
        select: { addressProvinceId: true, addressDistrictId: true, addressMunicipalityId: true, addressWard: true, addressStreet: true },
      });
    const changesOf = async (publicId: string) => (await world.recorded(EVENT_TYPES.userAddressChanged)).filter((event) => event['userId'] === publicId);
    const userWith = async (publicId: string) => world.prisma.user.findUniqueOrThrow({ where: { publicId } });

    it('stores a valid address as asked, its street trimmed; ward and street are optional', async () => {
      const stored = { ...KATHMANDU, ward: 7, street: 'Tole 3,\nnear the temple' };
      const profile = await createAddressed({ ...KATHMANDU, ward: 7, street: '  Tole 3,\nnear the temple ' });
      expect(profile.address).toEqual(stored);
      expect(geography.asked).toContainEqual(KATHMANDU);
      expect(await addressColumnsOf(profile.publicId)).toEqual({
        addressProvinceId: 1,
        addressDistrictId: 10,
        addressMunicipalityId: 100,
        addressWard: 7,
        addressStreet: stored.street,
      });
      expect((await createAddressed(KATHMANDU)).address).toEqual({ ...KATHMANDU, ward: null, street: null });
    });

    it('accepts a 255-character street and wards 1 and 99 (wardCount never constrains the stored ward)', async () => {
      for (const extra of [{ street: 's'.repeat(255), ward: 1 }, { ward: 99 }]) expect((await createAddressed({ ...KATHMANDU, ...extra })).address).toMatchObject(extra);
    });

    it.each([
      ['an unknown province', { provinceId: 9, districtId: 10, municipalityId: 100 }, 'address.provinceId', 'no such province'],
      ['an unknown district', { provinceId: 1, districtId: 99, municipalityId: 100 }, 'address.districtId', 'no such district'],
      ['an unknown municipality', { provinceId: 1, districtId: 10, municipalityId: 999 }, 'address.municipalityId', 'no such municipality'],
      ['a district of another province', { provinceId: 1, districtId: 20, municipalityId: 200 }, 'address.districtId', 'is not a district of the province'],
      ['a municipality of another district', { provinceId: 1, districtId: 10, municipalityId: 200 }, 'address.municipalityId', 'is not a municipality of the district'],
    ])('refuses %s naming the field, nothing created or changed', async (_case, address, field, message) => {
      const email = uniqueEmail('refused');
      await expect(createAddressed(address, email)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field, message }] });
      expect(await world.prisma.user.count({ where: { email } })).toBe(0);

      const profile = await createAddressed(KATHMANDU);
      const user = await userWith(profile.publicId);
      await expect(update(admin, user, { address })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field, message }] });
      expect(await addressColumnsOf(profile.publicId)).toMatchObject({ addressProvinceId: 1, addressDistrictId: 10, addressMunicipalityId: 100 });
    });

    it('replaces the address, keeps it when a patch has none, and clears it with null without asking', async () => {
      const user = await userWith((await createAddressed({ ...KATHMANDU, ward: 3, street: 'Old street' })).publicId);
      const moved = { provinceId: 2, districtId: 20, municipalityId: 200, ward: null, street: null };
      expect((await update(admin, user, { address: { provinceId: 2, districtId: 20, municipalityId: 200 } })).address).toEqual(moved);
      expect((await update(admin, user, { name: 'Renamed' })).address).toEqual(moved);
      const asking = geography.asked.length;
      expect((await update(admin, user, { address: null })).address).toBeNull();
      expect(geography.asked.length).toBe(asking);
      expect(await addressColumnsOf(user.publicId)).toEqual({
        addressProvinceId: null,
        addressDistrictId: null,
        addressMunicipalityId: null,
        addressWard: null,
        addressStreet: null,
      });
    });

    it('records the committed ids, a version that grows with each address write, and the claim the write relied on', async () => {
      const { publicId } = await createAddressed({ ...KATHMANDU, ward: 2 });
      const user = await userWith(publicId);
      const created = geography.claims.at(-1);
      expect(await changesOf(publicId)).toEqual([{ userId: publicId, address: KATHMANDU, version: 1, claimId: created }]);

      const other = { provinceId: 2, districtId: 20, municipalityId: 200 };
      await update(admin, user, { address: other });
      const moved = geography.claims.at(-1);
      // No address in the body, no event; a soft delete keeps the address (it still counts as a reference).
      await update(admin, user, { name: 'Renamed' });
      await update(admin, user, { address: null });
      await remove(admin, user);

      expect(await changesOf(publicId)).toEqual([
        { userId: publicId, address: KATHMANDU, version: 1, claimId: created },
        { userId: publicId, address: other, version: 2, claimId: moved },
        { userId: publicId, address: null, version: 3, claimId: null },
      ]);
      expect(new Set([created, moved]).size).toBe(2);
    });

    it('records no event for a refused write and releases its claim; a committed one keeps it', async () => {
      const taken = uniqueEmail('taken');
      await create({ email: taken, name: 'Taken', role: 'customer' });
      const before = await world.recorded(EVENT_TYPES.userAddressChanged);
      const asking = geography.claims.length;
      const releasedBefore = geography.released.length;
      expect(await outcome(createAddressed(KATHMANDU, taken))).toBe('USER_EMAIL_TAKEN');
      expect(geography.claims.length).toBe(asking + 1);
      expect(await world.recorded(EVENT_TYPES.userAddressChanged)).toEqual(before);
      await until(() => geography.released.includes(geography.claims.at(-1) as string), "the refused write's claim released");
      expect(geography.released.slice(releasedBefore)).toEqual([geography.claims.at(-1)]);
      expect((await world.prisma.user.findMany({ where: { email: taken } })).map((user) => user.addressVersion)).toEqual([0]);
    });
  });
});
