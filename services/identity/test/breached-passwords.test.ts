import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccount, type IdentityUnderTest, login, PASSWORD, signedInAccessToken, startIdentity } from './kit/index.js';

/** Contract §9: a new password among the 100,000 most common breached ones is refused like a weak one. */
describe('breached passwords (contract §9)', () => {
  let identity: IdentityUnderTest;

  beforeAll(async () => {
    identity = await startIdentity();
  });

  afterAll(async () => {
    await identity?.close();
  });

  function expectRefused(answer: { status: number; body: { errorCode: string | null; errors?: { field: string; message: string }[] } }, field: string): void {
    expect(answer.status).toBe(400);
    expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    expect(answer.body.errors).toEqual([{ field, message: 'is too common: it appears in lists of breached passwords' }]);
  }

  it.each([
    ['as listed', 'P@ssw0rd'],
    ['in another case than listed', 'Diunilaobu8*'],
  ])('refuses a listed password %s when setting a password (field newPassword)', async (_case, password) => {
    const user = await createAccount(identity, { role: 'staff' });
    const token = await signedInAccessToken(identity, user);
    expectRefused(await identity.request('POST', '/api/auth/password/set', { currentPassword: PASSWORD, newPassword: password }, token), 'newPassword');
  });

  it('refuses it on reset too (field password), before looking at the code', async () => {
    expectRefused(await identity.request('POST', '/api/auth/password/reset', { email: 'someone@example.com', otp: '123456', password: 'P@ssw0rd' }), 'password');
  });

  it('accepts a strong password that is not listed', async () => {
    const user = await createAccount(identity, { role: 'staff' });
    const token = await signedInAccessToken(identity, user);
    expect((await identity.request('POST', '/api/auth/password/set', { currentPassword: PASSWORD, newPassword: 'Quartz-Lantern-47' }, token)).status).toBe(200);
  });

  it('leaves the development bootstrap admin (Admin123!) able to log in', async () => {
    expect((await login(identity, 'admin', 'admin@example.com', 'Admin123!')).status).toBe(200);
  });
});
