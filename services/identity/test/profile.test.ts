import { describe, expect, it } from '@jest/globals';
import { PERMISSIONS } from '@school/auth';
import { accessTokenFor, AUTH_PREFIX, createAccount, identitySuite, me, NEW_PASSWORD, PASSWORD, refresh, signIn } from './kit/index.js';

const UNAUTHENTICATED = { message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' };

/**
 * Me, permissions and set password on the wire: the profile, the permissions of each role, the
 * surfaces, guards, envelopes and validation, and the other session refused at once after a
 * password change. Set password's rules (the other sessions ended, a first password, the current
 * one required and checked, a deleted caller) are test/medium/credentials.medium.test.ts.
 */
describe('me, permissions and set password', () => {
  const identity = identitySuite();

  const setPassword = (surface: 'admin' | 'mobile', accessToken: string | undefined, body: unknown) =>
    identity.request('POST', `${AUTH_PREFIX[surface]}/password/set`, body, accessToken);

  describe('me', () => {
    it.each([
      // Phones are unique among live accounts: one number each.
      ['admin', 'admin', '+9779812345671'],
      ['staff', 'admin', '+9779812345672'],
      ['customer', 'mobile', '+9779812345673'],
    ] as const)('answers the %s profile on the %s surface', async (role, surface, phone) => {
      const user = await createAccount(identity, { role });
      await identity.prisma.user.update({ where: { id: user.id }, data: { phone, phoneVerifiedAt: new Date() } });
      const { accessToken } = await signIn(identity, user);
      expect(await me(identity, surface, accessToken)).toEqual({
        status: 200,
        body: {
          message: 'Profile',
          errorCode: null,
          data: {
            publicId: user.publicId,
            email: user.email,
            name: 'Test Person',
            phone,
            role,
            emailVerified: false,
            phoneVerified: true,
            hasPassword: true,
            address: null,
            createdAt: user.createdAt.toISOString(),
          },
        },
      });
    });

    it('says hasPassword false for an account without a password', async () => {
      const invited = await createAccount(identity, { password: null });
      const answer = await me(identity, 'mobile', accessTokenFor(identity, invited));
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ publicId: invited.publicId, hasPassword: false });
    });

    it('requires a valid token', async () => {
      expect(await identity.request('GET', `${AUTH_PREFIX.admin}/me`)).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect(await me(identity, 'mobile', 'garbage')).toEqual({ status: 401, body: UNAUTHENTICATED });
    });

    it('refuses the token of a since-deleted account', async () => {
      const user = await createAccount(identity);
      const token = accessTokenFor(identity, user);
      await identity.prisma.user.update({ where: { id: user.id }, data: { deletedAt: new Date() } });
      expect(await me(identity, 'mobile', token)).toEqual({ status: 401, body: UNAUTHENTICATED });
    });
  });

  describe('permissions', () => {
    it('lists every permission for an admin', async () => {
      const { accessToken } = await signIn(identity, await createAccount(identity, { role: 'admin' }));
      const answer = await identity.request('GET', `${AUTH_PREFIX.admin}/permissions`, undefined, accessToken);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ message: 'Permissions', errorCode: null, data: { role: 'admin' } });
      expect([...(answer.body.data as { permissions: string[] }).permissions].sort()).toEqual(Object.values(PERMISSIONS).sort());
    });

    it('lists only Feedback_READ for staff; a customer (mobile token) is refused on the admin surface', async () => {
      const staff = await signIn(identity, await createAccount(identity, { role: 'staff' }));
      expect((await identity.request('GET', `${AUTH_PREFIX.admin}/permissions`, undefined, staff.accessToken)).body.data).toEqual({
        role: 'staff',
        permissions: ['Feedback_READ'],
      });
      const customer = await signIn(identity, await createAccount(identity));
      expect(await identity.request('GET', `${AUTH_PREFIX.admin}/permissions`, undefined, customer.accessToken)).toEqual({ status: 401, body: UNAUTHENTICATED });
    });

    it('requires a token and exists on the admin surface only', async () => {
      expect(await identity.request('GET', `${AUTH_PREFIX.admin}/permissions`)).toEqual({ status: 401, body: UNAUTHENTICATED });
      const customer = await signIn(identity, await createAccount(identity));
      expect((await identity.request('GET', `${AUTH_PREFIX.mobile}/permissions`, undefined, customer.accessToken)).status).toBe(404);
    });
  });

  describe('set password', () => {
    it.each(['admin', 'mobile'] as const)('changes the password on the %s surface, ending the other sessions only', async (surface) => {
      const user = await createAccount(identity, { role: surface === 'admin' ? 'staff' : 'customer' });
      const current = await signIn(identity, user);
      const other = await signIn(identity, user);

      const answer = await setPassword(surface, current.accessToken, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
      expect(answer).toEqual({ status: 200, body: { message: 'Password updated', data: null, errorCode: null } });

      expect((await me(identity, surface, current.accessToken)).status).toBe(200);
      expect((await refresh(identity, surface, current.refreshToken)).status).toBe(200);
      expect(await me(identity, surface, other.accessToken)).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect((await refresh(identity, surface, other.refreshToken)).status).toBe(401);
    });

    it('requires currentPassword once a password exists: 400 AUTH_CURRENT_PASSWORD_REQUIRED', async () => {
      const user = await createAccount(identity);
      const { accessToken } = await signIn(identity, user);
      expect(await setPassword('mobile', accessToken, { newPassword: NEW_PASSWORD })).toEqual({
        status: 400,
        body: { message: 'Current password is required', data: null, errorCode: 'AUTH_CURRENT_PASSWORD_REQUIRED' },
      });
    });

    it('refuses a wrong currentPassword with 401 AUTH_INVALID_CREDENTIALS and keeps the password', async () => {
      const user = await createAccount(identity, { role: 'admin' });
      const { accessToken } = await signIn(identity, user);
      expect(await setPassword('admin', accessToken, { currentPassword: 'Wr0ng!password', newPassword: NEW_PASSWORD })).toEqual({
        status: 401,
        body: { message: 'Invalid email or password', data: null, errorCode: 'AUTH_INVALID_CREDENTIALS' },
      });
      expect((await me(identity, 'admin', accessToken)).status).toBe(200);
    });

    /** One caller for the refusals that change nothing: each sign-in costs two argon2id runs. */
    let caller: Promise<string> | undefined;
    const callerToken = () => (caller ??= (async () => (await signIn(identity, await createAccount(identity))).accessToken)());

    it.each([
      ['too short', 'Ab1!xyz'],
      ['too long', `Aa1!${'x'.repeat(29)}`],
      ['no symbol', 'Abcdefg12'],
      ['no digit', 'Abcdefgh!'],
      ['no upper case', 'abcdefg1!'],
      ['no lower case', 'ABCDEFG1!'],
    ])('refuses a new password with %s: 400 VALIDATION_FAILED', async (_case, newPassword) => {
      const answer = await setPassword('mobile', await callerToken(), { currentPassword: PASSWORD, newPassword });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ errorCode: 'VALIDATION_FAILED', errors: [expect.objectContaining({ field: 'newPassword' })] });
    });

    it('refuses undeclared and missing fields with 400 VALIDATION_FAILED', async () => {
      const accessToken = await callerToken();
      for (const body of [{}, { newPassword: NEW_PASSWORD, currentPassword: PASSWORD, confirm: NEW_PASSWORD }, { newPassword: 123 }]) {
        const answer = await setPassword('mobile', accessToken, body);
        expect(answer.status).toBe(400);
        expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
      }
    });

    it('requires a valid token: 401', async () => {
      expect(await setPassword('admin', undefined, { newPassword: NEW_PASSWORD })).toEqual({ status: 401, body: UNAUTHENTICATED });
      expect(await setPassword('mobile', 'x.y.z', { newPassword: NEW_PASSWORD })).toEqual({ status: 401, body: UNAUTHENTICATED });
    });
  });
});
