import { randomBytes } from 'node:crypto';
import { BOOTSTRAP_ADMIN, clientAddress, invitedPerson, type SignedIn, signIn } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';
import { scaled } from '@school/testing';

/**
 * Issue 9, defects 7, 10, 12 and the errors[] cap of defect 9, through the gateway: control
 * characters in strings (contract §3), the errors[] cap, and tokens bound to their surface (§4).
 */

let system: SystemView;
let adminToken: string;

interface Answer {
  status: number;
  body: { message: string; data: unknown; errorCode: string | null; errors?: { field: string; message: string }[] };
  bytes: number;
}

const ADMIN = BOOTSTRAP_ADMIN;
const CUSTOMER_PASSWORD = 'Cust0mer!Tulip-Gate';

async function call(method: string, path: string, options: { body?: unknown; token?: string; raw?: string } = {}): Promise<Answer> {
  // From a client address of its own: the shared system's ip throttles count other suites' calls too.
  const headers: Record<string, string> = { 'x-forwarded-for': clientAddress() };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${system.gatewayUrl}${path}`, { method, headers, ...(payload !== undefined && { body: payload }) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Answer['body'], bytes: Buffer.byteLength(text) };
}

function expectValidationFailed(answer: Answer, field: string): void {
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ data: null, errorCode: 'VALIDATION_FAILED' });
  expect(answer.body.errors?.map((error) => error.field)).toContain(field);
}

beforeAll(async () => {
  system = await sharedSystem();
  adminToken = (await signIn(system, 'admin', ADMIN.email, ADMIN.password)).accessToken;
}, 90_000);

describe('control characters in strings (contract §3)', () => {
  it('answers a NUL in login deviceInfo with 400 VALIDATION_FAILED, not 500', async () => {
    const answer = await call('POST', '/api/auth/login/email', { body: { ...ADMIN, deviceInfo: { deviceName: 'phone\u0000name' } } });
    expectValidationFailed(answer, 'deviceInfo.deviceName');
  });

  it('answers a NUL in a user name with 400 VALIDATION_FAILED, not 500', async () => {
    const answer = await call('POST', '/api/users', {
      token: adminToken,
      body: { email: `nul.${randomBytes(4).toString('hex')}@example.com`, name: 'Nul\u0000Name', role: 'staff' },
    });
    expectValidationFailed(answer, 'name');
  });

  it('answers a NUL in the users search query with 400 VALIDATION_FAILED, not 500', async () => {
    const answer = await call('GET', '/api/users?search=ab%00cd', { token: adminToken });
    expectValidationFailed(answer, 'search');
  });

  it('refuses bidirectional overrides and other control characters in a user name, and keeps plain names', async () => {
    for (const name of ['Evil\u202Egnp.exe', 'Isolate\u2066x\u2069', 'Bell\u0007', 'Two\nlines', 'C1\u0085']) {
      const answer = await call('POST', '/api/users', { token: adminToken, body: { email: `bidi.${randomBytes(4).toString('hex')}@example.com`, name, role: 'staff' } });
      expectValidationFailed(answer, 'name');
    }
    const plain = await call('POST', '/api/users', {
      token: adminToken,
      body: { email: `plain.${randomBytes(4).toString('hex')}@example.com`, name: 'राम Bahadur', role: 'staff' },
    });
    expect(plain.status).toBe(201);
  });
});

describe('errors[] cap (contract §3)', () => {
  it('answers a 650 KB body of 60,000 undeclared fields with a small 400 listing at most 20 errors, quickly', async () => {
    const fields = Array.from({ length: 60_000 }, (_unused, index) => `"k${String(index).padStart(5, '0')}":1`).join(',');
    const raw = `{"email":"nobody@example.com","password":"x",${fields}}`;
    expect(raw.length).toBeGreaterThan(650_000);
    const started = Date.now();
    const answer = await call('POST', '/api/auth/login/email', { raw });
    expect(Date.now() - started).toBeLessThan(scaled(3_000));
    expect(answer.status).toBe(400);
    expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
    expect(answer.body.errors).toHaveLength(20);
    expect(answer.bytes).toBeLessThan(4_096);
  });
});

describe('tokens bound to their surface (contract §4)', () => {
  let customer: SignedIn;

  beforeAll(async () => {
    customer = await invitedPerson(system, adminToken, 'customer', CUSTOMER_PASSWORD);
  }, 60_000);

  it('refuses a customer token on the admin surface with 401 AUTH_UNAUTHENTICATED', async () => {
    const refused = [
      await call('GET', '/api/auth/me', { token: customer.accessToken }),
      await call('GET', '/api/auth/permissions', { token: customer.accessToken }),
      await call('DELETE', '/api/auth/logout', { token: customer.accessToken }),
      await call('POST', '/api/auth/phone/verify/request', { token: customer.accessToken, body: { phone: '+9779812345670' } }),
      await call('POST', '/api/auth/password/set', { token: customer.accessToken, body: { newPassword: 'An0ther!Fjord-Wick', currentPassword: CUSTOMER_PASSWORD } }),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ data: null, errorCode: 'AUTH_UNAUTHENTICATED' });
    }
  });

  it('keeps the customer token working on the mobile surface (the refused logout ended nothing)', async () => {
    const me = await call('GET', '/api/mobile/auth/me', { token: customer.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: customer.email, role: 'customer' });
  });

  it('refuses an admin-surface token on the mobile surface with 401 AUTH_UNAUTHENTICATED', async () => {
    for (const answer of [
      await call('GET', '/api/mobile/auth/me', { token: adminToken }),
      await call('DELETE', '/api/mobile/auth/logout', { token: adminToken }),
      await call('POST', '/api/mobile/auth/password/set', { token: adminToken, body: { newPassword: 'An0ther!Fjord-Wick', currentPassword: ADMIN.password } }),
    ]) {
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ data: null, errorCode: 'AUTH_UNAUTHENTICATED' });
    }
  });

  it('keeps the admin token working on the admin surface', async () => {
    expect((await call('GET', '/api/auth/me', { token: adminToken })).status).toBe(200);
    const permissions = await call('GET', '/api/auth/permissions', { token: adminToken });
    expect(permissions.status).toBe(200);
    expect(permissions.body.data).toMatchObject({ role: 'admin' });
    const phone = `+97798${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    expect((await call('POST', '/api/auth/phone/verify/request', { token: adminToken, body: { phone } })).status).toBe(200);
  });

  it('logs each surface out with its own token', async () => {
    expect((await call('DELETE', '/api/mobile/auth/logout', { token: customer.accessToken })).status).toBe(200);
    expect((await call('GET', '/api/mobile/auth/me', { token: customer.accessToken })).status).toBe(401);
    const admin = (await signIn(system, 'admin', ADMIN.email, ADMIN.password)).accessToken;
    expect((await call('DELETE', '/api/auth/logout', { token: admin })).status).toBe(200);
    expect((await call('GET', '/api/auth/me', { token: admin })).status).toBe(401);
  });

  it('lets other routes decide by permission: a customer token is 403 on users, not 401', async () => {
    const other = await invitedPerson(system, adminToken, 'customer', CUSTOMER_PASSWORD);
    const answer = await call('GET', '/api/users', { token: other.accessToken });
    expect(answer.status).toBe(403);
    expect(answer.body.errorCode).toBe('PERMISSION_INSUFFICIENT');
  }, 60_000);
});
