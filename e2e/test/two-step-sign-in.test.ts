import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from '@school/testing';
import type { SystemView } from '@school/system-harness';
import { Secret, TOTP } from 'otpauth';
import { linkToken, mailsTo } from './support/mail.js';
import { AUTH_PREFIX, BOOTSTRAP_ADMIN, clientAddress, invitedPerson } from './support/people.js';
import { SHARED_MFA_TOKEN_TTL_SECONDS as MFA_TOKEN_TTL_SECONDS, sharedSystem } from './support/shared-system.js';

/**
 * Contract §12 through the gateway: two-step sign-in for the administrator surface. Codes are
 * made with otpauth at chosen timestamps (the step before, the current one, the one after, two
 * away), so the window and the replay rule are proved without waiting for the clock.
 */

const PASSWORD = 'Tw0-Step!Quartz-Heron';
const STEP_MS = 30_000;

interface Answer<Data = unknown> {
  status: number;
  headers: Headers;
  body: { message: string; data: Data; errorCode: string | null; errors?: unknown };
}

interface TokenPair {
  accessToken: string;
  refreshToken: string;
  user: { publicId: string; email: string };
}

interface Challenge {
  mfaRequired: true;
  mfaToken: string;
  mfaTokenExpiresAt: string;
}

interface Enrolled {
  email: string;
  publicId: string;
  accessToken: string;
  secret: string;
  recoveryCodes: string[];
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string; amr?: string[] };
const refusal = (errorCode: string) => expect.objectContaining({ errorCode, data: null });

/** The code of `secret` for the step `offset` steps from `at`. */
function codeAt(secret: string, at: number, offset = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: at + offset * STEP_MS });
}

/** A six-digit code that is no code of `secret` within two steps of `at`. */
function wrongCode(secret: string, at: number): string {
  const near = new Set([-2, -1, 0, 1, 2].map((offset) => codeAt(secret, at, offset)));
  return ['000000', '111111', '222222', '333333', '444444', '555555'].find((code) => !near.has(code))!;
}

const stepOf = (moment: number) => Math.floor(moment / STEP_MS);

/**
 * Runs `sequence` with `at`, a moment of the current 30-second step: it computes its codes against
 * that step, which the server must see throughout. A run that failed while the step ended may have
 * failed on the clock, not on the product, so it runs again from the start (a new person each run),
 * three runs at most. Waiting instead for a step with room for the slowest run took a third of the suite.
 */
async function inOneStep(sequence: (at: number) => Promise<void>): Promise<void> {
  for (let run = 1; ; run += 1) {
    while (STEP_MS - (Date.now() % STEP_MS) < 2_000) await sleep(100);
    const at = Date.now();
    try {
      return await sequence(at);
    } catch (error) {
      if (run === 3 || stepOf(Date.now()) === stepOf(at)) throw error;
    }
  }
}

describe('two-step sign-in for the administrator surface (contract §12)', () => {
  let system: SystemView;
  let admin: TokenPair;
  /** An mfaToken asked for first, so that its lifetime runs out while the other tests run (the last but one test). */
  let expiring: Challenge & { secret: string };

  async function call<Data = unknown>(method: string, path: string, token?: string, body?: unknown, address = clientAddress()): Promise<Answer<Data>> {
    const headers: Record<string, string> = {
      'x-forwarded-for': address,
      ...(token && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    };
    const response = await fetch(`${system.gatewayUrl}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer<Data>['body'] };
  }

  const passwordStep = (email: string, deviceInfo?: Record<string, string>, address?: string) =>
    call<TokenPair | Challenge>('POST', `${AUTH_PREFIX.admin}/login/email`, undefined, { email, password: PASSWORD, ...(deviceInfo && { deviceInfo }) }, address);
  const codeStep = (mfaToken: string, code: string, address?: string) => call<TokenPair>('POST', `${AUTH_PREFIX.admin}/login/mfa`, undefined, { mfaToken, code }, address);
  const status = (token: string) => call<{ totp: boolean; recoveryCodesLeft: number }>('GET', `${AUTH_PREFIX.admin}/mfa`, token);
  const me = (token: string) => call('GET', `${AUTH_PREFIX.admin}/me`, token);
  const refresh = (refreshToken: string) => call<TokenPair>('POST', `${AUTH_PREFIX.admin}/refresh`, undefined, { refreshToken });

  async function challenge(email: string, deviceInfo?: Record<string, string>): Promise<Challenge> {
    const answer = await passwordStep(email, deviceInfo);
    expect(answer.status).toBe(200);
    return answer.body.data as Challenge;
  }

  /** A staff member who signed in with their password only. */
  async function staffMember(): Promise<{ email: string; publicId: string; accessToken: string }> {
    return invitedPerson(system, admin.accessToken, 'staff', PASSWORD);
  }

  /** A staff member with two-step sign-in on, confirmed with a code of the step before `at`'s. */
  async function enrolledStaff(at: number): Promise<Enrolled> {
    const person = await staffMember();
    const started = await call<{ secret: string; otpauthUrl: string }>('POST', `${AUTH_PREFIX.admin}/mfa/totp`, person.accessToken);
    expect(started.status).toBe(200);
    const { secret } = started.body.data;
    const confirmed = await call<{ recoveryCodes: string[] }>('POST', `${AUTH_PREFIX.admin}/mfa/totp/confirm`, person.accessToken, { code: codeAt(secret, at, -1) });
    expect(confirmed.status).toBe(200);
    return { ...person, secret, recoveryCodes: confirmed.body.data.recoveryCodes };
  }

  async function mailArrives(address: string, subject: string): Promise<void> {
    const deadline = Date.now() + scaled(20_000);
    while (Date.now() < deadline) {
      if ((await mailsTo(system.mailDir, address)).some((mail) => mail.subject === subject)) return;
      await sleep(200);
    }
    throw new Error(`no mail "${subject}" to ${address}`);
  }

  beforeAll(async () => {
    system = await sharedSystem();
    const answer = await call<TokenPair>('POST', `${AUTH_PREFIX.admin}/login/email`, undefined, { email: BOOTSTRAP_ADMIN.email, password: BOOTSTRAP_ADMIN.password });
    expect(answer.status).toBe(200);
    admin = answer.body.data;
    await inOneStep(async (at) => {
      const person = await enrolledStaff(at);
      expiring = { secret: person.secret, ...(await challenge(person.email)) };
    });
  });

  it('enrols: start answers a base32 secret and its otpauth URL, nothing changes until a code confirms it, a new start replaces it', () =>
    inOneStep(async (at) => {
      const person = await staffMember();
      expect((await status(person.accessToken)).body).toEqual(expect.objectContaining({ data: { totp: false, recoveryCodesLeft: 0 }, errorCode: null }));

      const first = await call<{ secret: string; otpauthUrl: string }>('POST', `${AUTH_PREFIX.admin}/mfa/totp`, person.accessToken);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('no-store');
      const { secret: firstSecret, otpauthUrl } = first.body.data;
      expect(firstSecret).toMatch(/^[A-Z2-7]{32}$/); // 160 bits
      const [, labelIssuer = '', labelEmail = '', urlSecret, issuer = ''] = /^otpauth:\/\/totp\/([^:?]+):([^?]+)\?secret=([A-Z2-7]+)&issuer=([^&]+)/.exec(otpauthUrl) ?? [];
      expect({ email: decodeURIComponent(labelEmail), secret: urlSecret }).toEqual({ email: person.email, secret: firstSecret });
      expect(decodeURIComponent(labelIssuer)).toBe(decodeURIComponent(issuer));
      expect(decodeURIComponent(issuer).length).toBeGreaterThan(0);

      // Not on yet: the password alone still signs in.
      const before = await passwordStep(person.email);
      expect(before.status).toBe(200);
      expect(before.body.data).toHaveProperty('accessToken');
      expect((await status(person.accessToken)).body.data).toEqual({ totp: false, recoveryCodesLeft: 0 });

      const second = await call<{ secret: string }>('POST', `${AUTH_PREFIX.admin}/mfa/totp`, person.accessToken);
      const secret = second.body.data.secret;
      expect(secret).not.toBe(firstSecret);
      const confirm = (code: string) => call<{ recoveryCodes: string[] }>('POST', `${AUTH_PREFIX.admin}/mfa/totp/confirm`, person.accessToken, { code });
      // The replaced secret's code, a wrong code and codes two steps away are refused.
      for (const code of [codeAt(firstSecret, at), wrongCode(secret, at), codeAt(secret, at, -2), codeAt(secret, at, 2), 'not-a-code']) {
        if (code === codeAt(secret, at)) continue;
        const refused = await confirm(code);
        expect({ code, status: refused.status, body: refused.body }).toEqual({ code, status: 400, body: refusal('AUTH_MFA_CODE_INVALID') });
      }
      expect((await status(person.accessToken)).body.data).toEqual({ totp: false, recoveryCodesLeft: 0 });

      const confirmed = await confirm(codeAt(secret, at));
      expect(confirmed.status).toBe(200);
      const codes = confirmed.body.data.recoveryCodes;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      expect((await status(person.accessToken)).body.data).toEqual({ totp: true, recoveryCodesLeft: 10 });

      // On: another start or confirm is 409.
      expect((await call('POST', `${AUTH_PREFIX.admin}/mfa/totp`, person.accessToken)).body).toEqual(refusal('AUTH_MFA_ALREADY_ENABLED'));
      const again = await confirm(codeAt(secret, at, 1));
      expect({ status: again.status, body: again.body }).toEqual({ status: 409, body: refusal('AUTH_MFA_ALREADY_ENABLED') });
    }));

  it('turning it on ends every other session of the holder; the calling one stays', () =>
    inOneStep(async (at) => {
      const person = await staffMember();
      const other = (await passwordStep(person.email)).body.data as TokenPair;
      expect((await me(other.accessToken)).status).toBe(200);

      const { secret } = (await call<{ secret: string }>('POST', `${AUTH_PREFIX.admin}/mfa/totp`, person.accessToken)).body.data;
      expect((await call('POST', `${AUTH_PREFIX.admin}/mfa/totp/confirm`, person.accessToken, { code: codeAt(secret, at) })).status).toBe(200);

      expect((await me(other.accessToken)).body).toEqual(refusal('AUTH_UNAUTHENTICATED'));
      const refused = await refresh(other.refreshToken);
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: refusal('AUTH_REFRESH_TOKEN_INVALID') });
      expect((await me(person.accessToken)).status).toBe(200);
    }));

  it('signs in in two steps: the password step answers an mfaToken and no tokens; the code step answers like login, with the device, amr ["pwd","otp"] kept by refresh', () =>
    inOneStep(async (at) => {
      const person = await enrolledStaff(at);
      const device = { deviceId: 'mfa-laptop', deviceType: 'web', deviceName: 'Backoffice laptop' };

      const step = await passwordStep(person.email, device);
      expect(step.status).toBe(200);
      expect(step.body.data).toEqual({ mfaRequired: true, mfaToken: expect.any(String), mfaTokenExpiresAt: expect.any(String) });
      expect(step.body.data).not.toHaveProperty('accessToken');
      const { mfaToken, mfaTokenExpiresAt } = step.body.data as Challenge;
      const lifetime = Date.parse(mfaTokenExpiresAt) - Date.now();
      expect(lifetime).toBeGreaterThan(0);
      expect(lifetime).toBeLessThanOrEqual(MFA_TOKEN_TTL_SECONDS * 1000 + 1000);

      // The current step.
      const signedIn = await codeStep(mfaToken, codeAt(person.secret, at));
      expect(signedIn.status).toBe(200);
      expect(signedIn.headers.get('cache-control')).toBe('no-store');
      expect(signedIn.body.data).toEqual(
        expect.objectContaining({
          accessToken: expect.any(String),
          refreshToken: expect.any(String),
          tokenType: 'Bearer',
          expiresIn: expect.any(Number),
          user: expect.objectContaining({ email: person.email }),
        }),
      );
      const tokens = signedIn.body.data;
      expect(claimsOf(tokens.accessToken).amr).toEqual(['pwd', 'otp']);
      const sessions = await call<{ id: string; deviceId: string; deviceType: string; deviceName: string }[]>('GET', `${AUTH_PREFIX.admin}/sessions`, tokens.accessToken);
      expect(sessions.body.data.find((row) => row.id === claimsOf(tokens.accessToken).sid)).toMatchObject(device);

      const refreshed = await refresh(tokens.refreshToken);
      expect(refreshed.status).toBe(200);
      expect(claimsOf(refreshed.body.data.accessToken).amr).toEqual(['pwd', 'otp']);

      // Single use: the same mfaToken again, even with the next step's code, is refused.
      const reused = await codeStep(mfaToken, codeAt(person.secret, at, 1));
      expect({ status: reused.status, body: reused.body }).toEqual({ status: 401, body: refusal('AUTH_MFA_TOKEN_INVALID') });
      // The next step's code is accepted on a new mfaToken; then nothing of a step at or before it (no replay).
      const next = await challenge(person.email);
      expect((await codeStep(next.mfaToken, codeAt(person.secret, at, 1))).status).toBe(200);
      const replay = await challenge(person.email);
      for (const offset of [1, 0, -1]) {
        const refused = await codeStep(replay.mfaToken, codeAt(person.secret, at, offset));
        expect({ offset, status: refused.status, body: refused.body }).toEqual({ offset, status: 401, body: refusal('AUTH_MFA_CODE_INVALID') });
      }

      for (const unknown of ['not-a-token', `${Buffer.from(person.email).toString('base64url')}.${randomBytes(32).toString('base64url')}`]) {
        const refused = await codeStep(unknown, codeAt(person.secret, at, 1));
        expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: refusal('AUTH_MFA_TOKEN_INVALID') });
      }
    }));

  it('accepts the step before, the current and the next one, refuses two steps away', () =>
    inOneStep(async (at) => {
      const person = await staffMember();
      const { secret } = (await call<{ secret: string }>('POST', `${AUTH_PREFIX.admin}/mfa/totp`, person.accessToken)).body.data;
      expect((await call('POST', `${AUTH_PREFIX.admin}/mfa/totp/confirm`, person.accessToken, { code: codeAt(secret, at) })).status).toBe(200);

      const token = (await challenge(person.email)).mfaToken;
      for (const offset of [2, -2]) {
        const refused = await codeStep(token, codeAt(secret, at, offset));
        expect({ offset, status: refused.status, body: refused.body }).toEqual({ offset, status: 401, body: refusal('AUTH_MFA_CODE_INVALID') });
      }
      // The confirmation's code signs in too: the replay rule counts the steps logins accepted.
      for (const offset of [-1, 0, 1]) {
        const signedIn = await codeStep(offset === -1 ? token : (await challenge(person.email)).mfaToken, codeAt(secret, at, offset));
        expect({ offset, status: signedIn.status }).toEqual({ offset, status: 200 });
      }
    }));

  it('retires the mfaToken at the fifth wrong code (itself still AUTH_MFA_CODE_INVALID); wrong codes count toward the email back-off, during which the step is 429', () =>
    inOneStep(async (at) => {
      const person = await enrolledStaff(at);
      const spare = await challenge(person.email);
      const { mfaToken } = await challenge(person.email);
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        const wrong = await codeStep(mfaToken, wrongCode(person.secret, at));
        expect({ attempt, status: wrong.status, body: wrong.body }).toEqual({ attempt, status: 401, body: refusal('AUTH_MFA_CODE_INVALID') });
      }
      const retired = await codeStep(mfaToken, codeAt(person.secret, at));
      expect({ status: retired.status, body: retired.body }).toEqual({ status: 401, body: refusal('AUTH_MFA_TOKEN_INVALID') });

      // Five failures in a row: the email is in back-off, for the code step and the password step alike.
      const held = await codeStep(spare.mfaToken, codeAt(person.secret, at));
      expect({ status: held.status, body: held.body }).toEqual({ status: 429, body: refusal('RATE_LIMITED') });
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await passwordStep(person.email)).status).toBe(429);
    }));

  it('a recovery code works once and the holder is emailed; new codes replace all ten, with a current code only', () =>
    inOneStep(async (at) => {
      const person = await enrolledStaff(at);
      const [first, second, third] = person.recoveryCodes;

      const recovered = await codeStep((await challenge(person.email)).mfaToken, first!);
      expect(recovered.status).toBe(200);
      expect(claimsOf(recovered.body.data.accessToken).amr).toEqual(['pwd', 'otp']);
      await mailArrives(person.email, 'A recovery code was used');
      const spent = await codeStep((await challenge(person.email)).mfaToken, first!);
      expect({ status: spent.status, body: spent.body }).toEqual({ status: 401, body: refusal('AUTH_MFA_CODE_INVALID') });
      // The same code again counted as a failure; a right code clears the count.
      expect((await codeStep((await challenge(person.email)).mfaToken, second!)).status).toBe(200);
      const token = recovered.body.data.accessToken;
      expect((await status(token)).body.data).toEqual({ totp: true, recoveryCodesLeft: 8 });

      const regenerate = (code: string) => call<{ recoveryCodes: string[] }>('POST', `${AUTH_PREFIX.admin}/mfa/recovery-codes`, token, { code });
      const wrong = await regenerate(wrongCode(person.secret, at));
      expect({ status: wrong.status, body: wrong.body }).toEqual({ status: 400, body: refusal('AUTH_MFA_CODE_INVALID') });
      const replaced = await regenerate(codeAt(person.secret, at));
      expect(replaced.status).toBe(200);
      expect(replaced.body.data.recoveryCodes).toHaveLength(10);
      expect((await status(token)).body.data).toEqual({ totp: true, recoveryCodesLeft: 10 });

      const old = await codeStep((await challenge(person.email)).mfaToken, third!);
      expect({ status: old.status, body: old.body }).toEqual({ status: 401, body: refusal('AUTH_MFA_CODE_INVALID') });
      expect((await codeStep((await challenge(person.email)).mfaToken, replaced.body.data.recoveryCodes[0]!)).status).toBe(200);
    }));

  it('turns off with the password and a current code (wrong password 401, wrong code 400); the holder is emailed; login is one step again with amr ["pwd"]', () =>
    inOneStep(async (at) => {
      const person = await enrolledStaff(at);
      const disable = (password: string, code: string) => call('DELETE', `${AUTH_PREFIX.admin}/mfa/totp`, person.accessToken, { password, code });

      const badPassword = await disable('Wr0ng!Password-Lynx', codeAt(person.secret, at));
      expect({ status: badPassword.status, body: badPassword.body }).toEqual({ status: 401, body: refusal('AUTH_INVALID_CREDENTIALS') });
      const badCode = await disable(PASSWORD, wrongCode(person.secret, at));
      expect({ status: badCode.status, body: badCode.body }).toEqual({ status: 400, body: refusal('AUTH_MFA_CODE_INVALID') });
      const off = await disable(PASSWORD, codeAt(person.secret, at));
      expect({ status: off.status, body: off.body }).toEqual({ status: 200, body: expect.objectContaining({ data: null, errorCode: null }) });
      await mailArrives(person.email, 'Two-step sign-in was turned off');

      expect((await status(person.accessToken)).body.data).toEqual({ totp: false, recoveryCodesLeft: 0 });
      const login = await passwordStep(person.email);
      expect(login.status).toBe(200);
      expect(claimsOf((login.body.data as TokenPair).accessToken).amr).toEqual(['pwd']);
    }));

  it('administrators turn it off for an account (Users_UPDATE), ending its sessions; an account without it is 404 AUTH_MFA_NOT_ENABLED', () =>
    inOneStep(async (at) => {
      const person = await enrolledStaff(at);
      const reset = (publicId: string, token = admin.accessToken) => call('DELETE', `/api/users/${publicId}/mfa`, token);

      const forbidden = await reset(person.publicId, person.accessToken);
      expect({ status: forbidden.status, body: forbidden.body }).toEqual({ status: 403, body: refusal('PERMISSION_INSUFFICIENT') });
      const done = await reset(person.publicId);
      expect({ status: done.status, body: done.body }).toEqual({ status: 200, body: expect.objectContaining({ data: null, errorCode: null }) });
      expect((await me(person.accessToken)).body).toEqual(refusal('AUTH_UNAUTHENTICATED'));
      const login = await passwordStep(person.email);
      expect(login.body.data).toHaveProperty('accessToken');

      const again = await reset(person.publicId);
      expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: refusal('AUTH_MFA_NOT_ENABLED') });
      const unknown = await reset('00000000-0000-4000-8000-000000000000');
      expect({ status: unknown.status, body: unknown.body }).toEqual({ status: 404, body: refusal('USER_NOT_FOUND') });
    }));

  it('a password reset does not turn it off', () =>
    inOneStep(async (at) => {
      const person = await enrolledStaff(at);
      expect((await call('POST', `${AUTH_PREFIX.admin}/password/forgot`, undefined, { email: person.email })).status).toBe(200);
      const token = await linkToken(system.mailDir, person.email, '/reset-password');
      const newPassword = 'Aft3r-Reset!Garnet-Owl';
      expect((await call('POST', `${AUTH_PREFIX.admin}/password/reset`, undefined, { token, password: newPassword })).status).toBe(200);
      const login = await call('POST', `${AUTH_PREFIX.admin}/login/email`, undefined, { email: person.email, password: newPassword });
      expect(login.status).toBe(200);
      expect(login.body.data).toEqual(expect.objectContaining({ mfaRequired: true }));
    }));

  it('the code step counts in the password step’s throttle buckets (ip + the mfaToken’s email)', () =>
    inOneStep(async (at) => {
      const person = await enrolledStaff(at);
      const address = clientAddress();
      // Tokens naming the email that identity never issued: 401, no back-off, but counted by the gateway.
      for (let attempt = 1; attempt <= 10; attempt += 1) {
        const forged = `${Buffer.from(person.email).toString('base64url')}.${randomBytes(32).toString('base64url')}`;
        expect((await codeStep(forged, codeAt(person.secret, at), address)).status).toBe(401);
      }
      const throttled = await passwordStep(person.email, undefined, address);
      expect({ status: throttled.status, body: throttled.body }).toEqual({ status: 429, body: refusal('RATE_LIMITED') });
      // The same email from another address is another bucket.
      expect((await passwordStep(person.email, undefined, clientAddress())).status).toBe(200);
    }));

  it('access tokens of both surfaces carry amr ["pwd"] after a password login, kept by refresh', async () => {
    expect(claimsOf(admin.accessToken).amr).toEqual(['pwd']);
    const customer = await invitedPerson(system, admin.accessToken, 'customer', PASSWORD);
    expect(claimsOf(customer.accessToken).amr).toEqual(['pwd']);
    const login = await call<TokenPair>('POST', `${AUTH_PREFIX.mobile}/login/email`, undefined, { email: customer.email, password: PASSWORD });
    const refreshed = await call<TokenPair>('POST', `${AUTH_PREFIX.mobile}/refresh`, undefined, { refreshToken: login.body.data.refreshToken });
    expect(claimsOf(refreshed.body.data.accessToken).amr).toEqual(['pwd']);
  });

  it('refuses an mfaToken past its lifetime', async () => {
    const { secret, mfaToken, mfaTokenExpiresAt } = expiring;
    while (Date.now() <= Date.parse(mfaTokenExpiresAt) + 200) await sleep(200);
    const expired = await codeStep(mfaToken, codeAt(secret, Date.now()));
    expect({ status: expired.status, body: expired.body }).toEqual({ status: 401, body: refusal('AUTH_MFA_TOKEN_INVALID') });
  });

  it('declares every route in the OpenAPI document', async () => {
    const document = (await (await fetch(`${system.gatewayUrl}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(document.paths['/api/auth/mfa'] ?? {})).toContain('get');
    expect(Object.keys(document.paths['/api/auth/mfa/totp'] ?? {}).sort()).toEqual(['delete', 'post']);
    expect(Object.keys(document.paths['/api/auth/mfa/totp/confirm'] ?? {})).toContain('post');
    expect(Object.keys(document.paths['/api/auth/mfa/recovery-codes'] ?? {})).toContain('post');
    expect(Object.keys(document.paths['/api/auth/login/mfa'] ?? {})).toContain('post');
    expect(Object.keys(document.paths['/api/users/{publicId}/mfa'] ?? {})).toContain('delete');
  });
});
