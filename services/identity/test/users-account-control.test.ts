import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import type { User } from '../src/generated/prisma/client.js';
import { createAccount, identitySuite, invite, lastEventOf, logIn, NEW_PASSWORD, PASSWORD, serveMessageRequests, signedInAccessToken, tokenOf } from './kit/index.js';

const SELF_ACTION = { message: 'You cannot ban or delete your own account', data: null, errorCode: 'USER_SELF_ACTION' };
const LAST_ADMIN = { message: 'This change would leave no active administrator', data: null, errorCode: 'USER_LAST_ADMIN' };
const CODE_INVALID = { message: 'Verification code is invalid or expired', data: null, errorCode: 'AUTH_VERIFICATION_CODE_INVALID' };

describe('account control (contract §6): self actions, the last admin, credentials of closed accounts', () => {
  const identity = identitySuite();

  const call = (token: string, method: string, path: string, body?: unknown) => identity.request(method, path, body, token);
  const activeAdmins = () => identity.prisma.user.count({ where: { role: 'admin', banned: false, deletedAt: null } });

  /** Exactly `count` active admins, signed in: every other admin (the bootstrap one included) is demoted first. */
  async function onlyAdmins(count: number): Promise<{ user: User; token: string }[]> {
    await identity.prisma.user.updateMany({ where: { role: 'admin' }, data: { role: 'staff' } });
    const admins = [];
    for (let index = 0; index < count; index += 1) {
      const user = await createAccount(identity, { role: 'admin' });
      admins.push({ user, token: await signedInAccessToken(identity, user) });
    }
    return admins;
  }

  describe('an admin cannot ban or delete their own account', () => {
    it('answers 409 USER_SELF_ACTION for a self ban and a self delete, checked first, and changes nothing', async () => {
      const [me] = await onlyAdmins(2);
      expect(await call(me!.token, 'PATCH', `/api/users/${me!.user.publicId}`, { banned: true })).toEqual({ status: 409, body: SELF_ACTION });
      expect(await call(me!.token, 'PATCH', `/api/users/${me!.user.publicId.toUpperCase()}`, { banned: true, name: 'X' })).toEqual({ status: 409, body: SELF_ACTION });
      expect(await call(me!.token, 'DELETE', `/api/users/${me!.user.publicId}`)).toEqual({ status: 409, body: SELF_ACTION });
      expect(await identity.prisma.user.findUniqueOrThrow({ where: { id: me!.user.id } })).toMatchObject({ banned: false, deletedAt: null, name: 'Test Person' });
      expect((await call(me!.token, 'GET', '/api/auth/me')).status).toBe(200);
    });

    it('is checked before the last-admin rule', async () => {
      const [me] = await onlyAdmins(1);
      expect(await call(me!.token, 'DELETE', `/api/users/${me!.user.publicId}`)).toEqual({ status: 409, body: SELF_ACTION });
    });

    it('still lets an admin edit their own account otherwise', async () => {
      const [me] = await onlyAdmins(1);
      expect((await call(me!.token, 'PATCH', `/api/users/${me!.user.publicId}`, { name: 'Still Me', banned: false })).status).toBe(200);
    });
  });

  describe('no change may leave the system without an active admin', () => {
    beforeEach(async () => {
      await identity.prisma.user.updateMany({ where: { role: 'admin' }, data: { role: 'staff' } });
    });

    it('refuses the only active admin demoting themselves: 409 USER_LAST_ADMIN; banned and deleted admins do not count', async () => {
      const [me] = await onlyAdmins(1);
      await createAccount(identity, { role: 'admin', banned: true });
      const deleted = await createAccount(identity, { role: 'admin' });
      await identity.prisma.user.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });

      expect(await call(me!.token, 'PATCH', `/api/users/${me!.user.publicId}`, { role: 'staff' })).toEqual({ status: 409, body: LAST_ADMIN });
      expect(await activeAdmins()).toBe(1);
      expect((await call(me!.token, 'GET', '/api/auth/me')).status).toBe(200);
    });

    it('lets an admin step down, be banned or be deleted while another active admin remains', async () => {
      const [first] = await onlyAdmins(2);
      expect((await call(first!.token, 'PATCH', `/api/users/${first!.user.publicId}`, { role: 'staff' })).status).toBe(200);
      const [third, fourth] = await onlyAdmins(2);
      expect((await call(third!.token, 'PATCH', `/api/users/${fourth!.user.publicId}`, { banned: true })).status).toBe(200);
      expect(await call(third!.token, 'PATCH', `/api/users/${third!.user.publicId}`, { role: 'customer' })).toEqual({ status: 409, body: LAST_ADMIN });
      const [fifth, sixth] = await onlyAdmins(2);
      expect((await call(fifth!.token, 'DELETE', `/api/users/${sixth!.user.publicId}`)).status).toBe(200);
      expect(await activeAdmins()).toBe(1);
    });

    it('lets exactly one of two admins stepping down at once succeed', async () => {
      for (let round = 0; round < 3; round += 1) {
        const admins = await onlyAdmins(2);
        const answers = await Promise.all(admins.map(({ user, token }) => call(token, 'PATCH', `/api/users/${user.publicId}`, { role: 'staff' })));
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
        expect(answers.find((answer) => answer.status === 409)!.body).toEqual(LAST_ADMIN);
        expect(await activeAdmins()).toBe(1);
      }
    });

    it('never lets two admins banning or deleting each other at once leave no active admin', async () => {
      for (const change of ['ban', 'delete'] as const) {
        const [first, second] = await onlyAdmins(2);
        const act = (actor: typeof first, target: typeof first) =>
          change === 'ban'
            ? call(actor!.token, 'PATCH', `/api/users/${target!.user.publicId}`, { banned: true })
            : call(actor!.token, 'DELETE', `/api/users/${target!.user.publicId}`);
        const answers = await Promise.all([act(first, second), act(second, first)]);
        // The loser is refused by the rule, or, when the winner's ban already ended its session, by its token.
        expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
        for (const refused of answers.filter((answer) => answer.status !== 200)) {
          expect([LAST_ADMIN.errorCode, 'AUTH_UNAUTHENTICATED']).toContain(refused.body.errorCode);
        }
        expect(await activeAdmins()).toBe(1);
      }
    });
  });

  describe('banning or deleting an account retires its live reset and invitation credentials (contract §4)', () => {
    let admin: { user: User; token: string };

    beforeAll(async () => {
      [admin] = (await onlyAdmins(1)) as [{ user: User; token: string }];
    });

    const reset = (body: Record<string, unknown>) => identity.request('POST', '/api/auth/password/reset', { ...body, password: NEW_PASSWORD });

    async function forgot(user: User): Promise<{ token: string; otp: string }> {
      expect((await identity.request('POST', '/api/mobile/auth/password/forgot', { email: user.email })).status).toBe(200);
      await serveMessageRequests(identity);
      const event = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
      if (event.delivery.channel !== 'email') throw new Error('expected an email delivery');
      return { token: tokenOf(event.delivery.resetUrl), otp: event.otp };
    }

    it('a reset link and code issued before a ban stay dead after the unban', async () => {
      const user = await createAccount(identity);
      const { token, otp } = await forgot(user);
      expect((await call(admin.token, 'PATCH', `/api/users/${user.publicId}`, { banned: true })).status).toBe(200);
      expect(await reset({ token })).toEqual({ status: 400, body: CODE_INVALID });
      expect((await call(admin.token, 'PATCH', `/api/users/${user.publicId}`, { banned: false })).status).toBe(200);
      expect(await reset({ token })).toEqual({ status: 400, body: CODE_INVALID });
      expect(await reset({ email: user.email, otp })).toEqual({ status: 400, body: CODE_INVALID });
      expect((await logIn(identity, user, PASSWORD)).status).toBe(200);
    });

    it('an invitation issued before a ban no longer sets a password', async () => {
      const user = await createAccount(identity, { password: null });
      await invite(identity, user);
      const { inviteUrl } = await lastEventOf(identity, EVENT_TYPES.invitationCreated, user.publicId);
      expect((await call(admin.token, 'PATCH', `/api/users/${user.publicId}`, { banned: true })).status).toBe(200);
      expect((await call(admin.token, 'PATCH', `/api/users/${user.publicId}`, { banned: false })).status).toBe(200);
      expect(await reset({ token: tokenOf(inviteUrl) })).toEqual({ status: 400, body: CODE_INVALID });
    });

    it('a soft delete retires them too, and leaves other credentials of the person alone', async () => {
      const user = await createAccount(identity);
      await forgot(user);
      await identity.prisma.verificationCredential.create({
        data: { userId: user.id, purpose: 'email_verification', tokenHash: 'f'.repeat(64), target: user.email, expiresAt: new Date(Date.now() + 60_000) },
      });
      expect((await call(admin.token, 'DELETE', `/api/users/${user.publicId}`)).status).toBe(200);
      const credentials = await identity.prisma.verificationCredential.findMany({ where: { userId: user.id } });
      expect(credentials.filter((credential) => credential.purpose === 'password_reset').every((credential) => credential.retiredAt !== null)).toBe(true);
      expect(credentials.find((credential) => credential.purpose === 'email_verification')).toMatchObject({ retiredAt: null });
    });
  });
});
