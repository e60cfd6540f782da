import { describe, expect, it } from '@jest/globals';
import { SERVICES } from '@school/config';
import { EVENT_TYPES } from '@school/contracts';
import { auditEntriesIn, secretsIn } from '@school/messaging/testing';
import { Secret, TOTP } from 'otpauth';
import type { User } from '../src/generated/prisma/client.js';
import { createAccount, identitySuite, lastEventOf, logIn, PASSWORD, signedInAccessToken } from './kit/index.js';

/**
 * Contract §12 rules that need two requests at once or a look at the rows: one code signs in once
 * however many logins race with it, one mfaToken and one recovery code are spent once, and what is
 * stored is ciphertext and hashes. The flows one at a time are proved through the gateway (e2e).
 */
describe('two-step sign-in: races and storage (contract §12)', () => {
  const identity = identitySuite();

  const codeOf = (secret: string, offset = 0) =>
    new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

  async function enrolled() {
    const user = await createAccount(identity, { role: 'staff' });
    const token = await signedInAccessToken(identity, user);
    const started = await identity.request('POST', '/api/auth/mfa/totp', undefined, token);
    const { secret } = started.body.data as { secret: string };
    const confirmed = await identity.request('POST', '/api/auth/mfa/totp/confirm', { code: codeOf(secret) }, token);
    expect(confirmed.status).toBe(200);
    return { user, secret, recoveryCodes: (confirmed.body.data as { recoveryCodes: string[] }).recoveryCodes };
  }

  async function mfaToken(user: Pick<User, 'email' | 'role'>): Promise<string> {
    const answer = await logIn(identity, user);
    expect(answer.body.data).toMatchObject({ mfaRequired: true });
    return (answer.body.data as { mfaToken: string }).mfaToken;
  }

  const secondStep = (token: string, code: string) => identity.request('POST', '/api/auth/login/mfa', { mfaToken: token, code });

  it('stores the secret encrypted and the recovery codes hashed', async () => {
    const { user, secret, recoveryCodes } = await enrolled();
    const stored = await identity.prisma.mfaTotp.findUniqueOrThrow({ where: { userId: user.id } });
    expect(stored.secret).not.toContain(secret);
    expect(stored.enabledAt).not.toBeNull();
    const hashes = await identity.prisma.mfaRecoveryCode.findMany({ where: { userId: user.id } });
    expect(hashes).toHaveLength(10);
    for (const row of hashes) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(recoveryCodes).not.toContain(row.codeHash);
    }
  });

  it('lets one of several logins racing with the same code through (no replay)', async () => {
    const { user, secret } = await enrolled();
    const tokens = await Promise.all(Array.from({ length: 4 }, () => mfaToken(user)));
    const code = codeOf(secret, 1);
    const answers = await Promise.all(tokens.map((token) => secondStep(token, code)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401, 401]);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expect(refused.body).toMatchObject({ errorCode: 'AUTH_MFA_CODE_INVALID' });
  });

  it('spends one mfaToken once when two right codes race on it', async () => {
    const { user, secret, recoveryCodes } = await enrolled();
    const one = await mfaToken(user);
    const answers = await Promise.all([secondStep(one, codeOf(secret)), secondStep(one, recoveryCodes[0]!)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect(answers.find((answer) => answer.status === 401)?.body).toMatchObject({ errorCode: 'AUTH_MFA_TOKEN_INVALID' });
    // The loser wrote nothing: its recovery code, had it lost, is still unused.
    expect(await identity.prisma.mfaRecoveryCode.count({ where: { userId: user.id, usedAt: { not: null } } })).toBe(answers[1].status === 200 ? 1 : 0);
  });

  it('counts every one of five wrong codes sent at once: the mfaToken is retired', async () => {
    const { user, secret } = await enrolled();
    const one = await mfaToken(user);
    const wrong = ['000000', '111111', '222222', '333333', '444444', '555555', '666666'].filter((code) => ![-1, 0, 1].some((offset) => codeOf(secret, offset) === code));
    const answers = await Promise.all(wrong.slice(0, 5).map((code) => secondStep(one, code)));
    expect(answers.map((answer) => answer.body.errorCode)).toEqual(Array(5).fill('AUTH_MFA_CODE_INVALID'));
    expect((await secondStep(one, codeOf(secret, 1))).body).toMatchObject({ errorCode: 'AUTH_MFA_TOKEN_INVALID' });
  });

  it('spends a recovery code once when two logins race with it, and records the mail of the one that won', async () => {
    const { user, recoveryCodes } = await enrolled();
    const code = recoveryCodes[0]!;
    const answers = await Promise.all([secondStep(await mfaToken(user), code), secondStep(await mfaToken(user), code.toUpperCase())]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401]);
    expect(await identity.prisma.mfaRecoveryCode.count({ where: { userId: user.id, usedAt: { not: null } } })).toBe(1);
    expect(await lastEventOf(identity, EVENT_TYPES.recoveryCodeUsed, user.publicId)).toMatchObject({ email: user.email, recoveryCodesLeft: 9 });
  });

  it('records every two-step change and second-step sign-in event in the audit trail, never a secret or code (contract §13)', async () => {
    const { user, secret, recoveryCodes } = await enrolled();
    const codes = [codeOf(secret, -1), codeOf(secret), codeOf(secret, 1)];
    const wrong = ['000000', '111111', '222222'].find((code) => !codes.includes(code))!;
    expect((await secondStep(await mfaToken(user), wrong)).status).toBe(401);
    const signedIn = await secondStep(await mfaToken(user), recoveryCodes[0]!);
    expect(signedIn.status).toBe(200);
    const token = (signedIn.body.data as { accessToken: string }).accessToken;
    const off = await identity.request('DELETE', '/api/auth/mfa/totp', { password: PASSWORD, code: codeOf(secret, 1) }, token);
    expect(off.status).toBe(200);
    const again = await enrolled();
    const admin = await createAccount(identity, { role: 'admin' });
    const reset = await identity.request('DELETE', `/api/users/${again.user.publicId}/mfa`, undefined, await signedInAccessToken(identity, admin));
    expect(reset.status).toBe(200);

    const entries = (await auditEntriesIn(identity.prisma, SERVICES.identity.schema)).filter((entry) => [user.publicId, again.user.publicId].includes(entry.target?.id ?? ''));
    // Sorted: entries of one transaction may share a millisecond, so their ids need not follow their order.
    const actions = (publicId: string) =>
      entries
        .filter((entry) => entry.target?.id === publicId)
        .map((entry) => entry.action)
        .sort();
    expect(actions(user.publicId)).toEqual(['auth.login', 'auth.login', 'auth.login_failed', 'auth.mfa_disabled', 'auth.mfa_enabled', 'auth.recovery_code_used']);
    expect(actions(again.user.publicId)).toEqual(['auth.login', 'auth.mfa_enabled', 'user.mfa_reset']);
    const resetEntry = entries.find((entry) => entry.action === 'user.mfa_reset');
    expect(resetEntry).toMatchObject({ actor: { publicId: admin.publicId, role: 'admin' }, changes: { twoStepSignIn: { from: true, to: false } } });
    expect(entries.find((entry) => entry.action === 'auth.recovery_code_used')).toMatchObject({ actor: { publicId: user.publicId } });
    expect(secretsIn(entries, [secret, again.secret, ...recoveryCodes, ...codes, wrong, PASSWORD])).toEqual([]);
  });
});
