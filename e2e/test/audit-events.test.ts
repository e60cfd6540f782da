import { randomUUID } from 'node:crypto';
import { AUDIT_CSV_COLUMNS, EVENT_TYPES, type AuditEntryDto, type EventPayload } from '@school/contracts';
import type { OpenApiDocument } from '@school/openapi';
import { TestBroker } from '@school/messaging/testing';
import { uuidv7 } from '@school/prisma';
import type { SystemView } from '@school/system-harness';
import { scaled, waitFor } from '@school/testing';
import { undocumented } from './support/documented-responses.js';
import { BOOTSTRAP_ADMIN, clientAddress, invitedPerson, signIn, type SignedIn } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';

/**
 * Contract §13 through the gateway: `GET /api/audit-events` guards (401, 403 for staff and
 * customers), its envelope with `nextCursor`, its CSV with `X-Next-Cursor`, and entries seeded as a
 * service's outbox relay publishes them (`audit.entry_recorded` on the broker, message id = entry id)
 * listed within 5 s.
 */

type RecordedEntry = EventPayload<'audit.entry_recorded'>;

interface Page {
  message: string;
  data: AuditEntryDto[];
  errorCode: string | null;
  nextCursor?: string | null;
  errors?: { field: string }[];
}

let system: SystemView;
let broker: TestBroker;
let admin: SignedIn;

beforeAll(async () => {
  system = await sharedSystem();
  broker = await TestBroker.connect(system.brokerPrefix);
  admin = await signIn(system, 'admin', BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
}, 120_000);

afterAll(async () => {
  await broker?.close();
});

function get(query: Record<string, string>, token: string | null = admin.accessToken, accept?: string): Promise<Response> {
  const headers: Record<string, string> = { 'x-forwarded-for': clientAddress() };
  if (token) headers.authorization = `Bearer ${token}`;
  if (accept) headers.accept = accept;
  return fetch(`${system.gatewayUrl}/api/audit-events?${new URLSearchParams(query).toString()}`, { headers });
}

async function page(query: Record<string, string>, token: string | null = admin.accessToken): Promise<{ status: number; body: Page; headers: Headers }> {
  const answer = await get(query, token);
  return { status: answer.status, body: (await answer.json()) as Page, headers: answer.headers };
}

function entry(target: string, overrides: Partial<RecordedEntry> = {}): RecordedEntry {
  return {
    occurredAt: new Date().toISOString(),
    actor: { publicId: admin.publicId, role: 'admin' },
    action: 'user.update',
    target: { type: 'user', id: target },
    changes: { banned: { from: false, to: true } },
    ip: '198.51.100.4',
    userAgent: 'e2e',
    requestId: randomUUID(),
    ...overrides,
  };
}

/** Publishes as a relay does and waits until the route lists it: within 5 s (contract §13), on a loaded machine stretched by the time scale. */
async function seeded(payload: RecordedEntry): Promise<string> {
  const id = uuidv7();
  await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(payload), { messageId: id });
  await waitFor(async () => (await page({ targetId: payload.target!.id! })).body.data.some((item) => item.id === id), { timeoutMs: 5_000, what: `entry ${id} listed` });
  return id;
}

describe('GET /api/audit-events through the gateway', () => {
  it('needs a token (401) and Audit_READ: staff and customers are 403 PERMISSION_INSUFFICIENT', async () => {
    expect(await page({}, null)).toMatchObject({ status: 401, body: { errorCode: 'AUTH_UNAUTHENTICATED', data: null } });
    const staff = await invitedPerson(system, admin.accessToken, 'staff', 'Staff!Pass-2468');
    expect(await page({}, staff.accessToken)).toMatchObject({ status: 403, body: { errorCode: 'PERMISSION_INSUFFICIENT', data: null } });
    const customer = await invitedPerson(system, admin.accessToken, 'customer', 'Cust!Pass-1357');
    expect((await page({}, customer.accessToken)).status).toBe(403);
  });

  it('answers the envelope with nextCursor beside data, no-store, and the actor’s email added by the store', async () => {
    const target = randomUUID();
    const older = await seeded(entry(target, { occurredAt: new Date(Date.now() - 1_000).toISOString() }));
    const newer = await seeded(entry(target, { action: 'user.delete', changes: { deletedAt: { from: null, to: new Date().toISOString() } } }));

    const first = await page({ targetId: target, limit: '1' });
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toContain('no-store');
    expect(first.body).toEqual({ message: expect.any(String), data: [expect.objectContaining({ id: newer })], errorCode: null, nextCursor: expect.any(String) });
    expect(first.body.data[0]).toMatchObject({
      actor: { publicId: admin.publicId, email: BOOTSTRAP_ADMIN.email, role: 'admin' },
      action: 'user.delete',
      target: { type: 'user', id: target },
    });

    const second = await page({ targetId: target, limit: '1', cursor: first.body.nextCursor! });
    expect(second.body).toMatchObject({ data: [expect.objectContaining({ id: older })], nextCursor: null });

    const document = (await (await fetch(`${system.gatewayUrl}/api/openapi.json`)).json()) as OpenApiDocument;
    expect(undocumented(document, 'get', '/api/audit-events', 200, first.body)).toEqual([]);
    expect(Object.keys(document.paths['/api/audit-events']?.get?.responses['200']?.content ?? {}).sort()).toEqual(['application/json', 'text/csv']);
    expect(document.paths['/api/audit-events']?.get?.responses['200']?.headers).toHaveProperty('X-Next-Cursor');
  });

  it('answers a bad limit or a tampered cursor with 400 VALIDATION_FAILED', async () => {
    for (const limit of ['0', '201', 'x']) expect(await page({ limit })).toMatchObject({ status: 400, body: { errorCode: 'VALIDATION_FAILED', data: null } });
    expect(await page({ cursor: 'tampered' })).toMatchObject({ status: 400, body: { errorCode: 'VALIDATION_FAILED', errors: [{ field: 'cursor' }] } });
  });

  it('Accept: text/csv answers CSV with the header row and X-Next-Cursor, through the gateway', async () => {
    const target = randomUUID();
    await seeded(entry(target, { occurredAt: new Date(Date.now() - 1_000).toISOString() }));
    const newest = await seeded(entry(target, { userAgent: '@SUM(1+1), "quoted"' }));

    const csv = await get({ targetId: target, limit: '1' }, admin.accessToken, 'text/csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const cursor = csv.headers.get('x-next-cursor');
    expect(cursor).toEqual(expect.any(String));
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(lines[1]).toContain(`${newest},`);
    expect(lines[1]).toContain(`,${BOOTSTRAP_ADMIN.email},admin,user.update,user,${target},198.51.100.4,"'@SUM(1+1), ""quoted""",`);

    const last = await get({ targetId: target, limit: '1', cursor: cursor! }, admin.accessToken, 'text/csv');
    expect(last.headers.get('x-next-cursor')).toBeNull();
    expect((await last.text()).split('\r\n').filter(Boolean)).toHaveLength(2);
  });

  it('lists a change made through the gateway within 5 s of its answer: actor with email, changes, ip, user agent and request id', async () => {
    const ip = clientAddress();
    const email = `audited.${randomUUID().slice(0, 8)}@example.com`;
    const created = await fetch(`${system.gatewayUrl}/api/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.accessToken}`, 'content-type': 'application/json', 'x-forwarded-for': ip, 'user-agent': 'audit-e2e' },
      body: JSON.stringify({ email, name: 'Audited Person', role: 'customer' }),
    });
    expect(created.status).toBe(201);
    const answeredAt = Date.now();
    const { publicId } = ((await created.json()) as { data: { publicId: string } }).data;
    const [listed] = await waitFor(
      async () => {
        const found = (await page({ targetId: publicId, action: 'user.create' })).body.data;
        return found.length > 0 ? found : null;
      },
      { timeoutMs: 5_000, what: 'the user.create entry listed' },
    );
    expect(Date.now() - answeredAt).toBeLessThan(scaled(5_000));
    expect(listed).toMatchObject({
      actor: { publicId: admin.publicId, email: BOOTSTRAP_ADMIN.email, role: 'admin' },
      action: 'user.create',
      target: { type: 'user', id: publicId },
      changes: { email: { from: null, to: email }, name: { from: null, to: 'Audited Person' } },
      ip,
      userAgent: 'audit-e2e',
      requestId: created.headers.get('x-request-id'),
    });
  });

  it('is read-only: no method changes or deletes an entry', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await fetch(`${system.gatewayUrl}/api/audit-events`, {
        method,
        headers: { authorization: `Bearer ${admin.accessToken}`, 'x-forwarded-for': clientAddress() },
      });
      expect({ method, status: answer.status }).toEqual({ method, status: 404 });
    }
  });
});
