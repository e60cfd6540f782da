import { randomBytes } from 'node:crypto';
import type { SystemView } from '@school/system-harness';
import { scaled } from '@school/testing';
import { linkToken } from './support/mail.js';
import { AUTH_PREFIX, BOOTSTRAP_ADMIN, clientAddress, signIn, type SignedIn, type Surface } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';

/**
 * Contract §9 through the gateway (issue 31, items 3 and 4): a new password the strength estimator
 * scores below 3 is refused on every route that sets one, like a breached one; and a login counts
 * as failed only when its password was checked and was wrong, so logins with the right password
 * arriving together are all answered. Every request comes from an address of its own (the shared
 * system trusts one proxy), so the gateway's per-ip throttles never answer first.
 */
let system: SystemView;
let admin: SignedIn;

const GUESSABLE = ['Password1!', 'Welcome2024!'];
const STRONG = 'Quartz-Lantern-47';

beforeAll(async () => {
  system = await sharedSystem();
  admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
}, 90_000);

interface Answer {
  status: number;
  retryAfter: string | null;
  body: { errorCode: string | null; errors?: { field: string; message: string }[] };
}

async function post(path: string, body: unknown, accessToken?: string): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': clientAddress() };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  const response = await fetch(`${system.gatewayUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Answer['body'] };
}

function expectTooEasy(answer: Answer, field: string): void {
  expect(answer.status).toBe(400);
  expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
  expect(answer.body.errors).toEqual([{ field, message: expect.stringMatching(/^is too easy to guess/) }]);
}

/** A person the admin creates; their invitation is mailed to them. */
async function created(role: 'staff' | 'customer'): Promise<{ email: string; surface: Surface }> {
  const email = `strength.${role}.${randomBytes(4).toString('hex')}@example.com`;
  expect((await post('/api/users', { email, name: 'Strength Test', role }, admin.accessToken)).status).toBe(201);
  return { email, surface: role === 'customer' ? 'mobile' : 'admin' };
}

describe('guessable new passwords are refused (contract §9)', () => {
  it('on invitation redemption, on both surfaces; a strong one is accepted', async () => {
    for (const role of ['staff', 'customer'] as const) {
      const { email, surface } = await created(role);
      const token = await linkToken(system.mailDir, email, '/accept-invitation', new Set(), scaled(20_000));
      for (const password of GUESSABLE) expectTooEasy(await post(`${AUTH_PREFIX[surface]}/password/reset`, { token, password }), 'password');
      expect((await post(`${AUTH_PREFIX[surface]}/password/reset`, { token, password: STRONG })).status).toBe(200);
    }
  });

  it('on set password, on both surfaces', async () => {
    for (const role of ['staff', 'customer'] as const) {
      const { email, surface } = await created(role);
      const token = await linkToken(system.mailDir, email, '/accept-invitation', new Set(), scaled(20_000));
      expect((await post(`${AUTH_PREFIX[surface]}/password/reset`, { token, password: STRONG })).status).toBe(200);
      const person = await signIn(system, surface, email, STRONG);
      for (const password of GUESSABLE) {
        expectTooEasy(await post(`${AUTH_PREFIX[surface]}/password/set`, { currentPassword: STRONG, newPassword: password }, person.accessToken), 'newPassword');
      }
    }
  });

  it('on reset with the mailed link, and with a code', async () => {
    const { email, surface } = await created('customer');
    expect((await post(`${AUTH_PREFIX[surface]}/password/forgot`, { email })).status).toBe(200);
    const token = await linkToken(system.mailDir, email, '/reset-password', new Set(), scaled(20_000));
    for (const password of GUESSABLE) {
      expectTooEasy(await post(`${AUTH_PREFIX[surface]}/password/reset`, { token, password }), 'password');
      expectTooEasy(await post(`${AUTH_PREFIX[surface]}/password/reset`, { email, otp: '123456', password }), 'password');
    }
    expect((await post(`${AUTH_PREFIX[surface]}/password/reset`, { token, password: STRONG })).status).toBe(200);
  });
});

describe('a failed login is one whose password was checked and was wrong (contract §9)', () => {
  async function person(): Promise<string> {
    const { email, surface } = await created('staff');
    const token = await linkToken(system.mailDir, email, '/accept-invitation', new Set(), scaled(20_000));
    expect((await post(`${AUTH_PREFIX[surface]}/password/reset`, { token, password: STRONG })).status).toBe(200);
    return email;
  }

  const login = (email: string, password: string) => post('/api/auth/login/email', { email, password });

  it('answers 40 logins with the right password arriving together, none 429; a busy one is 503 with Retry-After', async () => {
    const email = await person();
    const answers = await Promise.all(Array.from({ length: 40 }, () => login(email, STRONG)));
    for (const answer of answers) {
      if (answer.status === 503) expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
      else expect(answer.status).toBe(200);
    }
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
    // Nothing of the burst counted: four failures are still free.
    for (let i = 0; i < 4; i += 1) expect((await login(email, 'Wrong!pass1')).status).toBe(401);
    expect((await login(email, STRONG)).status).toBe(200);
  });

  it('refuses the right password after five failures: 429 with Retry-After', async () => {
    const email = await person();
    for (let i = 0; i < 5; i += 1) expect((await login(email, 'Wrong!pass1')).status).toBe(401);
    const refused = await login(email, STRONG);
    expect(refused.status).toBe(429);
    expect(refused.body.errorCode).toBe('RATE_LIMITED');
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(50);
  });
});
