import { describe, expect, it } from '@jest/globals';
import { EVENT_TYPES } from '@school/contracts';
import { AUTH_PREFIX, createAccount, identitySuite, invite, lastEventOf, login, PASSWORD, serveMessageRequests, signedInAccessToken, tokenOf } from './kit/index.js';

const BREACHED = 'is too common: it appears in lists of breached passwords';
const GUESSABLE = 'is too easy to guess: avoid common words, names, years and patterns, even with digits or symbols added';

/**
 * Contract §9: a new password among the 100,000 most common breached ones, or one the strength
 * estimator scores below 3, is refused like a weak one, on every route that sets a password.
 */
describe('breached and guessable passwords (contract §9)', () => {
  const identity = identitySuite();

  function expectRefused(answer: { status: number; body: { errorCode: string | null; errors?: { field: string; message: string }[] } }, field: string, message = BREACHED): void {
    expect(answer.status).toBe(400);
    expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    expect(answer.body.errors).toEqual([{ field, message }]);
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

  describe.each(['Password1!', 'Welcome2024!'])('a guessable password, %s', (password) => {
    it.each(['staff', 'customer'] as const)('is refused when a %s sets a password on their surface (field newPassword)', async (role) => {
      const user = await createAccount(identity, { role });
      const token = await signedInAccessToken(identity, user);
      const prefix = AUTH_PREFIX[role === 'staff' ? 'admin' : 'mobile'];
      expectRefused(await identity.request('POST', `${prefix}/password/set`, { currentPassword: PASSWORD, newPassword: password }, token), 'newPassword', GUESSABLE);
    });

    it('is refused on reset with a code, and the code stays usable', async () => {
      const user = await createAccount(identity, { role: 'customer' });
      expect((await identity.request('POST', '/api/mobile/auth/password/forgot', { email: user.email })).status).toBe(200);
      await serveMessageRequests(identity);
      const { otp } = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
      expectRefused(await identity.request('POST', '/api/mobile/auth/password/reset', { email: user.email, otp, password }), 'password', GUESSABLE);
      expect((await identity.request('POST', '/api/mobile/auth/password/reset', { email: user.email, otp, password: 'Quartz-Lantern-47' })).status).toBe(200);
    });

    it('is refused on reset with a link, and when redeeming an invitation', async () => {
      const user = await createAccount(identity, { role: 'customer' });
      expect((await identity.request('POST', '/api/mobile/auth/password/forgot', { email: user.email })).status).toBe(200);
      await serveMessageRequests(identity);
      const { delivery } = await lastEventOf(identity, EVENT_TYPES.passwordResetRequested, user.publicId);
      if (delivery.channel !== 'email') throw new Error('expected the reset by email');
      expectRefused(await identity.request('POST', '/api/mobile/auth/password/reset', { token: tokenOf(delivery.resetUrl), password }), 'password', GUESSABLE);

      const invited = await createAccount(identity, { role: 'staff', password: null });
      await invite(identity, invited);
      const { inviteUrl } = await lastEventOf(identity, EVENT_TYPES.invitationCreated, invited.publicId);
      expectRefused(await identity.request('POST', '/api/auth/password/reset', { token: tokenOf(inviteUrl), password }), 'password', GUESSABLE);
      expect((await identity.request('POST', '/api/auth/password/reset', { token: tokenOf(inviteUrl), password: 'Quartz-Lantern-47' })).status).toBe(200);
    });
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
