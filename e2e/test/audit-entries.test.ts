import { randomBytes } from 'node:crypto';
import { SERVICES, type ServiceName } from '@school/config';
import { auditEntriesIn, type RecordedAuditEntry } from '@school/messaging/testing';
import type { SystemView } from '@school/system-harness';
import { withConnection } from '@school/testing';
import { AUTH_PREFIX, BOOTSTRAP_ADMIN, clientAddress, invitedPerson, type SignedIn, signIn } from './support/people.js';
import { sharedSystem, sharedSystemDatabaseUrl } from './support/shared-system.js';

/**
 * Contract §13 through the gateway: every service records its entries in its own outbox with the
 * client address the gateway determined (TRUST_PROXY=1 here), the client's user agent and the
 * X-Request-Id the gateway answered. The entries are read from each service's outbox table.
 */

let system: SystemView;
let databaseUrl: string;
let admin: SignedIn;

beforeAll(async () => {
  system = await sharedSystem();
  databaseUrl = await sharedSystemDatabaseUrl();
  admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
});

interface Sent {
  ip: string;
  userAgent: string;
  status: number;
  body: { data?: unknown };
  /** The X-Request-Id the gateway answered. */
  requestId: string | null;
}

async function send(method: string, path: string, body?: FormData | object, token: string | null = admin.accessToken): Promise<Sent> {
  const ip = clientAddress();
  const userAgent = `audit-e2e/${randomBytes(4).toString('hex')}`;
  const json = body !== undefined && !(body instanceof FormData);
  const response = await fetch(`${system.gatewayUrl}${path}`, {
    method,
    headers: {
      'x-forwarded-for': ip,
      'user-agent': userAgent,
      ...(token && { authorization: `Bearer ${token}` }),
      ...(json && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: body instanceof FormData ? body : JSON.stringify(body) }),
  });
  return { ip, userAgent, status: response.status, body: (await response.json()) as Sent['body'], requestId: response.headers.get('x-request-id') };
}

function entriesOf(service: ServiceName): Promise<RecordedAuditEntry[]> {
  return withConnection(databaseUrl, (client) =>
    auditEntriesIn({ $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await client.query(query, values)).rows as T }, SERVICES[service].schema),
  );
}

async function entryFor(service: ServiceName, action: string, targetId: string | null): Promise<RecordedAuditEntry[]> {
  return (await entriesOf(service)).filter((entry) => entry.action === action && entry.target?.id === targetId);
}

function expectFrom(entries: RecordedAuditEntry[], sent: Sent): void {
  expect(sent.requestId).toEqual(expect.any(String));
  expect(entries).toEqual([expect.objectContaining({ ip: sent.ip, userAgent: sent.userAgent, requestId: sent.requestId })]);
}

/** `sent` left one entry of `action` on `targetId` in `service`, from its request and naming the admin, with `expected` besides. */
async function expectRecordedByAdmin(service: ServiceName, action: string, targetId: string, sent: Sent, expected: Record<string, unknown>): Promise<void> {
  const entries = await entryFor(service, action, targetId);
  expectFrom(entries, sent);
  expect(entries[0]).toMatchObject({ actor: { publicId: admin.publicId, role: 'admin' }, ...expected });
}

describe('audit entries through the gateway (contract §13)', () => {
  it("identity: a user created by the admin names the admin, the client's address and agent, and the gateway's request id", async () => {
    const email = `audited.${randomBytes(4).toString('hex')}@example.com`;
    const sent = await send('POST', '/api/users', { email, name: 'Audited Person', role: 'staff' });
    expect(sent.status).toBe(201);
    const publicId = (sent.body.data as { publicId: string }).publicId;
    await expectRecordedByAdmin('identity', 'user.create', publicId, sent, { changes: { email: { from: null, to: email } } });
  });

  it('identity: a failed staff login records its entry though the login answers 401; a login and a logout theirs', async () => {
    const staff = await invitedPerson(system, admin.accessToken, 'staff', 'Audit!E2e-Kettle9');
    const failed = await send('POST', `${AUTH_PREFIX.admin}/login/email`, { email: staff.email, password: 'Wr0ng!audit-e2e' }, null);
    expect(failed.status).toBe(401);
    const failures = await entryFor('identity', 'auth.login_failed', staff.publicId);
    expectFrom(failures, failed);
    expect(failures[0]).toMatchObject({ actor: { publicId: staff.publicId, role: 'staff' } });

    const loggedOut = await send('DELETE', `${AUTH_PREFIX.admin}/logout`, undefined, staff.accessToken);
    expect(loggedOut.status).toBe(200);
    expectFrom(await entryFor('identity', 'auth.logout', staff.publicId), loggedOut);
  });

  it("identity: a customer's sign-in events are not recorded", async () => {
    const customer = await invitedPerson(system, admin.accessToken, 'customer', 'Audit!E2e-Kettle9');
    expect((await send('POST', `${AUTH_PREFIX.mobile}/login/email`, { email: customer.email, password: 'Wr0ng!audit-e2e' }, null)).status).toBe(401);
    const about = (await entriesOf('identity')).filter((entry) => entry.target?.id === customer.publicId);
    expect(about.map((entry) => entry.action)).toEqual(['user.create']);
  });

  it('reference-data: a province created records where it came from', async () => {
    const sent = await send('POST', '/api/lookups/provinces', { name: `Audited ${randomBytes(3).toString('hex')}` });
    expect(sent.status).toBe(201);
    const publicId = (sent.body.data as { publicId: string }).publicId;
    await expectRecordedByAdmin('reference-data', 'province.create', publicId, sent, { target: { type: 'province', id: publicId } });
  });

  it('media: an admin upload records its key as the target', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'audited.pdf');
    const sent = await send('POST', '/api/upload?uploadType=file', form);
    expect(sent.status).toBe(200);
    const key = (sent.body.data as { relativePath: string }).relativePath;
    await expectRecordedByAdmin('media', 'file.upload', key, sent, { target: { type: 'file', id: key } });
  });

  it('records nothing for a refused change', async () => {
    const refused = [await send('POST', '/api/lookups/provinces', { name: '' }), await send('PATCH', '/api/users/00000000-0000-4000-8000-000000000000', { name: 'Nobody' })];
    expect(refused.map((sent) => sent.status)).toEqual([400, 404]);
    const ids = new Set(refused.map((sent) => sent.requestId));
    const entries = [...(await entriesOf('reference-data')), ...(await entriesOf('identity'))];
    expect(entries.filter((entry) => ids.has(entry.requestId))).toEqual([]);
  });
});
