import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import type { User } from '../src/generated/prisma/client.js';
import { createAccount, identitySuite, lastEventOf, NEW_PASSWORD, serveMessageRequests, signedInAccessToken, tokenOf } from './kit/index.js';

const SELF_ACTION = { message: 'You cannot ban or delete your own account', data: null, errorCode: 'USER_SELF_ACTION' };
const LAST_ADMIN = { message: 'This change would leave no active administrator', data: null, errorCode: 'USER_LAST_ADMIN' };
const CODE_INVALID = { message: 'Verification code is invalid or expired', data: null, errorCode: 'AUTH_VERIFICATION_CODE_INVALID' };

/**
 * Account control on the wire (contract §6): the 409 of a self action and of the last admin, and a
 * reset a ban retired refused. The rules (self actions checked first, banned and deleted admins not
 * counting, admins racing to step down or ban each other, what a ban or delete retires) are
 * test/medium/users.medium.test.ts.
 */
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
      expect(await call(me!.token, 'DELETE', `/api/users/${me!.user.publicId}`)).toEqual({ status: 409, body: SELF_ACTION });
      expect(await identity.prisma.user.findUniqueOrThrow({ where: { id: me!.user.id } })).toMatchObject({ banned: false, deletedAt: null, name: 'Test Person' });
      expect((await call(me!.token, 'GET', '/api/auth/me')).status).toBe(200);
    });
  });

  describe('no change may leave the system without an active admin', () => {
    beforeEach(async () => {
      await identity.prisma.user.updateMany({ where: { role: 'admin' }, data: { role: 'staff' } });
    });

    it('refuses the only active admin demoting themselves: 409 USER_LAST_ADMIN', async () => {
      const [me] = await onlyAdmins(1);

      expect(await call(me!.token, 'PATCH', `/api/users/${me!.user.publicId}`, { role: 'staff' })).toEqual({ status: 409, body: LAST_ADMIN });
      expect(await activeAdmins()).toBe(1);
      expect((await call(me!.token, 'GET', '/api/auth/me')).status).toBe(200);
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
    });
  });
});
