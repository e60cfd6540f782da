import { beforeAll, describe, expect, it } from '@jest/globals';
import { AUTH_PREFIX, createAccount, type HttpAnswer, identitySuite, me, PASSWORD, refresh, sessionIdOf, signIn, uniqueEmail } from './kit/index.js';

/** Contract §3 (control characters, errors[] cap) and §4 (tokens bound to their surface) on identity's routes. */
describe('input hardening and token surfaces', () => {
  const identity = identitySuite();
  let adminToken: string;

  beforeAll(async () => {
    adminToken = (await signIn(identity, await createAccount(identity, { role: 'admin' }))).accessToken;
  });

  function expectRefused(answer: HttpAnswer, field: string): void {
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ data: null, errorCode: 'VALIDATION_FAILED' });
    expect(answer.body.errors?.map((error) => error.field)).toContain(field);
  }

  describe('control characters (contract §3)', () => {
    const login = { email: 'someone@example.com', password: PASSWORD };

    it.each([
      ['a NUL in deviceInfo.deviceName', { ...login, deviceInfo: { deviceName: 'a\u0000b' } }, 'deviceInfo.deviceName'],
      ['a control character in deviceInfo.deviceId', { ...login, deviceInfo: { deviceId: 'id\u0007' } }, 'deviceInfo.deviceId'],
      ['a bidi override in deviceInfo.deviceType', { ...login, deviceInfo: { deviceType: '\u202Eios' } }, 'deviceInfo.deviceType'],
      ['a NUL in the password', { ...login, password: 'Str0ng!\u0000pass' }, 'password'],
      ['a NUL in the email', { ...login, email: 'some\u0000one@example.com' }, 'email'],
    ])('login refuses %s on both surfaces', async (_case, body, field) => {
      for (const prefix of Object.values(AUTH_PREFIX)) expectRefused(await identity.request('POST', `${prefix}/login/email`, body), field);
    });

    it.each([
      ['a NUL', 'Nul\u0000Name'],
      ['a right-to-left override', 'Evil\u202Egnp.exe'],
      ['an isolate', 'a\u2067b\u2069'],
      ['a C0 control', 'Bell\u0007'],
      ['a line break inside', 'Two\nlines'],
      ['a C1 control', 'C1\u009B'],
    ])('users create and patch refuse %s in a name', async (_case, name) => {
      expectRefused(await identity.request('POST', '/api/users', { email: uniqueEmail('name'), name, role: 'staff' }, adminToken), 'name');
      const user = await createAccount(identity, { role: 'staff' });
      expectRefused(await identity.request('PATCH', `/api/users/${user.publicId}`, { name }, adminToken), 'name');
    });

    it('users create keeps names in any script, with direction marks', async () => {
      const created = await identity.request('POST', '/api/users', { email: uniqueEmail('script'), name: '  राम علي\u200F Bahadur ', role: 'staff' }, adminToken);
      expect(created.status).toBe(201);
      expect((created.body.data as { name: string }).name).toBe('राम علي\u200F Bahadur');
    });

    it.each([
      ['a NUL', 'ab%00cd'],
      ['a control character', 'ab%01cd'],
      ['a bidi override', 'ab%E2%80%AEcd'],
    ])('users search refuses %s', async (_case, search) => {
      expectRefused(await identity.request('GET', `/api/users?search=${search}`, undefined, adminToken), 'search');
    });

    it('refuses control characters in codes, tokens, emails and phones of the credential routes', async () => {
      for (const prefix of Object.values(AUTH_PREFIX)) {
        expectRefused(await identity.request('POST', `${prefix}/password/forgot`, { email: 'a\u0085b@example.com' }), 'email');
        expectRefused(await identity.request('POST', `${prefix}/password/reset`, { token: 'tok\u0000en', password: 'N3w!Brass-Kettle' }), 'token');
        expectRefused(await identity.request('POST', `${prefix}/password/reset`, { token: 'tok\u202Een', password: 'N3w!Brass-Kettle' }), 'token');
        expectRefused(await identity.request('POST', `${prefix}/email/verify/confirm`, { token: 'tok\u0007en' }), 'token');
        expectRefused(await identity.request('POST', `${prefix}/refresh`, { refreshToken: 'ref\u0000resh' }), 'refreshToken');
      }
      expectRefused(await identity.request('POST', `${AUTH_PREFIX.admin}/phone/verify/request`, { phone: '+97798\u000012345' }, adminToken), 'phone');
    });
  });

  describe('errors[] cap (contract §3)', () => {
    it('lists at most 20 of 60,000 undeclared fields', async () => {
      const fields = Array.from({ length: 60_000 }, (_unused, index) => `"k${index}":1`).join(',');
      const answer = await identity.request('POST', `${AUTH_PREFIX.mobile}/login/email`, `{"email":"a@example.com","password":"x",${fields}}`);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toHaveLength(20);
      expect(answer.body.errors?.[0]).toEqual({ field: 'k0', message: 'Unknown field' });
    });
  });

  describe('tokens bound to their surface (contract §4)', () => {
    const unauthenticated = { status: 401, body: { message: 'Authentication required', data: null, errorCode: 'AUTH_UNAUTHENTICATED' } };

    it('refuses a customer token on every JWT route of /api/auth with 401, ending nothing', async () => {
      const customer = await signIn(identity, await createAccount(identity, { role: 'customer' }));
      const admin = AUTH_PREFIX.admin;
      for (const [method, path, body] of [
        ['GET', `${admin}/me`],
        ['GET', `${admin}/permissions`],
        ['DELETE', `${admin}/logout`],
        ['POST', `${admin}/password/set`, { newPassword: 'N3w!Brass-Kettle', currentPassword: PASSWORD }],
        ['POST', `${admin}/phone/verify/request`, { phone: '+9779812345671' }],
        ['POST', `${admin}/phone/verify/confirm`, { phone: '+9779812345671', otp: '123456' }],
        ['GET', `${admin}/sessions`],
        ['DELETE', `${admin}/sessions`],
        ['DELETE', `${admin}/sessions/${sessionIdOf(customer.accessToken)}`],
      ] as const) {
        expect(await identity.request(method, path, body, customer.accessToken)).toEqual(unauthenticated);
      }
      expect((await me(identity, 'mobile', customer.accessToken)).status).toBe(200);
      expect((await identity.request('DELETE', `${AUTH_PREFIX.mobile}/logout`, undefined, customer.accessToken)).status).toBe(200);
    });

    it.each(['admin', 'staff'] as const)('refuses an admin-surface token of %s on every JWT route of /api/mobile/auth with 401', async (role) => {
      const tokens = await signIn(identity, await createAccount(identity, { role }));
      const mobile = AUTH_PREFIX.mobile;
      for (const [method, path, body] of [
        ['GET', `${mobile}/me`],
        ['DELETE', `${mobile}/logout`],
        ['POST', `${mobile}/password/set`, { newPassword: 'N3w!Brass-Kettle', currentPassword: PASSWORD }],
        ['GET', `${mobile}/sessions`],
        ['DELETE', `${mobile}/sessions`],
        ['DELETE', `${mobile}/sessions/${sessionIdOf(tokens.accessToken)}`],
      ] as const) {
        expect(await identity.request(method, path, body, tokens.accessToken)).toEqual(unauthenticated);
      }
      expect((await me(identity, 'admin', tokens.accessToken)).status).toBe(200);
      expect((await identity.request('GET', `${AUTH_PREFIX.admin}/permissions`, undefined, tokens.accessToken)).status).toBe(200);
    });

    it('binds refreshed access tokens to the session surface', async () => {
      const customer = await signIn(identity, await createAccount(identity, { role: 'customer' }));
      const refreshed = await refresh(identity, 'mobile', customer.refreshToken);
      expect(refreshed.status).toBe(200);
      const { accessToken } = refreshed.body.data as { accessToken: string };
      expect(JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString())).toMatchObject({ srf: 'mobile', role: 'customer' });
      expect((await me(identity, 'mobile', accessToken)).status).toBe(200);
      expect(await me(identity, 'admin', accessToken)).toEqual(unauthenticated);
    });

    it('leaves other routes to permissions: a customer token is 403 on users, an admin one 200', async () => {
      const customer = await signIn(identity, await createAccount(identity, { role: 'customer' }));
      expect((await identity.request('GET', '/api/users', undefined, customer.accessToken)).status).toBe(403);
      expect((await identity.request('GET', '/api/users', undefined, adminToken)).status).toBe(200);
    });
  });
});
