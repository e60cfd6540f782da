import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { emailDigest } from '@school/http';
import { AUDIT_CSV_COLUMNS, EVENT_TYPES, type AuditEntryDto, type EventPayload } from '@school/contracts';
import { TestBroker } from '@school/messaging/testing';
import { uuidv7 } from '@school/prisma';
import { DatabaseSchema } from '@school/service';
import { waitFor } from '@school/testing';
import { AuditEntriesRepository } from '../src/audit/audit-entries.repository.js';
import { AuditRetention } from '../src/audit/audit-retention.js';
import { AUDIT_EVENTS } from '../src/audit/audit.module.js';
import type { User } from '../src/generated/prisma/client.js';
import { accessTokenFor, createAccount, DAY, identitySuite } from './kit/index.js';

type RecordedEntry = EventPayload<'audit.entry_recorded'>;

interface AuditPageBody {
  message: string;
  data: AuditEntryDto[];
  errorCode: string | null;
  nextCursor: string | null;
  errors?: { field: string; message: string }[];
}

/**
 * Contract §13, the store: `audit.entry_recorded` events published to the broker as a service's
 * relay would (message id = entry id) are stored once with the actor's email from the accounts, and
 * read through `GET /api/audit-events` (filters, keyset cursor, CSV); `identity.user_erased` scrubs
 * them; the retention job removes old ones, two instances at once.
 */
describe('audit store: real RabbitMQ and Postgres, read through GET /api/audit-events', () => {
  // One message at a time, in order: a message stored means every one published before it was handled.
  const identity = identitySuite({ AMQP_PREFETCH: '1' }, 120_000);
  let broker: TestBroker;
  let admin: User;
  let adminToken: string;

  beforeAll(async () => {
    broker = await TestBroker.connect(identity.brokerPrefix);
    broker.consumer(AUDIT_EVENTS.consumer, AUDIT_EVENTS.bindings);
    await waitFor(async () => (await identity.request('GET', '/health/ready')).status === 200, { what: 'identity ready (subscribed)' });
    admin = await createAccount(identity, { role: 'admin' });
    adminToken = accessTokenFor(identity, admin);
  }, 120_000);

  afterAll(async () => {
    await broker?.close();
  });

  function entry(overrides: Partial<RecordedEntry> = {}): RecordedEntry {
    return {
      occurredAt: new Date().toISOString(),
      actor: { publicId: admin.publicId, role: 'admin' },
      action: 'user.update',
      target: { type: 'user', id: randomUUID() },
      changes: { banned: { from: false, to: true } },
      ip: '203.0.113.9',
      userAgent: 'jest',
      requestId: randomUUID(),
      ...overrides,
    };
  }

  const stored = (id: string) => identity.prisma.auditEntry.findUnique({ where: { id } });

  /** Publishes as a service's outbox relay does (message id = the entry id) and waits until it is stored. */
  async function recorded(payload: RecordedEntry, id: string = uuidv7()): Promise<string> {
    await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(payload), { messageId: id });
    await waitFor(() => stored(id), { what: `audit entry ${id} stored` });
    return id;
  }

  async function list(query: Record<string, string>, token = adminToken): Promise<{ status: number; body: AuditPageBody }> {
    const answer = await identity.request('GET', `/api/audit-events?${new URLSearchParams(query).toString()}`, undefined, token);
    return answer as unknown as { status: number; body: AuditPageBody };
  }
  const ids = async (query: Record<string, string>) => {
    const answer = await list(query);
    expect(answer.status).toBe(200);
    return answer.body.data.map((item) => item.id);
  };

  it('stores an entry with the actor’s email from the accounts, listed in the contract’s shape', async () => {
    const payload = entry({ changes: { name: { from: 'Old', to: 'New' } } });
    const id = await recorded(payload);
    const answer = await list({ actor: admin.publicId, limit: '200' });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ message: expect.any(String), errorCode: null, nextCursor: null });
    expect(answer.body.data.find((item) => item.id === id)).toEqual({
      id,
      occurredAt: payload.occurredAt,
      actor: { publicId: admin.publicId, email: admin.email, role: 'admin' },
      action: 'user.update',
      target: payload.target,
      changes: { name: { from: 'Old', to: 'New' } },
      ip: '203.0.113.9',
      userAgent: 'jest',
      requestId: payload.requestId,
    });
  });

  it('stores an entry without actor or target as nulls, and one whose actor has no account without an email', async () => {
    const target = randomUUID();
    const anonymous = await recorded(entry({ actor: null, target: null, action: 'school_profile.update', requestId: target }));
    const ghost = randomUUID();
    const unknown = await recorded(entry({ actor: { publicId: ghost, role: 'staff' }, target: { type: 'user', id: target } }));
    const [first] = (await list({ action: 'school_profile.update' })).body.data.filter((item) => item.id === anonymous);
    expect(first).toMatchObject({ actor: null, target: null });
    expect((await list({ targetId: target })).body.data).toEqual([expect.objectContaining({ id: unknown, actor: { publicId: ghost, email: null, role: 'staff' } })]);
  });

  it('the same event delivered twice is one entry', async () => {
    const actor = await createAccount(identity, { role: 'staff' });
    const payload = entry({ actor: { publicId: actor.publicId, role: 'staff' } });
    const id = await recorded(payload);
    await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify({ ...payload, action: 'user.delete' }), { messageId: id });
    // Prefetch 1: once the next event is stored, the redelivery before it was handled.
    await recorded(entry({ actor: { publicId: actor.publicId, role: 'staff' } }));
    const entries = (await list({ actor: actor.publicId })).body.data;
    expect(entries.filter((item) => item.id === id)).toEqual([expect.objectContaining({ action: 'user.update' })]);
    expect(entries).toHaveLength(2);
  });

  it('an event that breaks its schema is dead-lettered and stores nothing', async () => {
    const id = uuidv7();
    await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify({ ...entry(), action: 'user.explode' }), { messageId: id });
    const dlq = broker.consumer(AUDIT_EVENTS.consumer, AUDIT_EVENTS.bindings).deadLetterQueue;
    await waitFor(async () => ((await broker.messageCount(dlq)) ?? 0) > 0, { what: 'the dead-letter queue has the message' });
    expect(await stored(id)).toBeNull();
  });

  describe('filters', () => {
    const base = Date.parse('2026-03-01T10:00:00.000Z');
    const at = (ms: number) => new Date(base + ms).toISOString();
    let actor: string;
    let target: string;
    let created: Record<string, string>;

    beforeAll(async () => {
      actor = (await createAccount(identity, { role: 'admin' })).publicId;
      target = randomUUID();
      const by = { publicId: actor, role: 'admin' };
      created = {
        create: await recorded(entry({ actor: by, action: 'user.create', target: { type: 'user', id: target }, occurredAt: at(0) })),
        update: await recorded(entry({ actor: by, action: 'user.update', target: { type: 'user', id: target }, occurredAt: at(1000) })),
        province: await recorded(entry({ actor: by, action: 'province.create', target: { type: 'province', id: randomUUID() }, occurredAt: at(2000) })),
        login: await recorded(entry({ actor: by, action: 'auth.login', target: { type: 'user', id: actor }, occurredAt: at(3000) })),
        file: await recorded(entry({ actor: by, action: 'file.upload', target: { type: 'file', id: `uploads/image/${actor}/x.png` }, occurredAt: at(4000) })),
      };
    });

    it('actor: newest first', async () => {
      expect(await ids({ actor })).toEqual([created.file, created.login, created.province, created.update, created.create]);
    });

    it('action exact and <resource>.*', async () => {
      expect(await ids({ actor, action: 'user.update' })).toEqual([created.update]);
      expect(await ids({ actor, action: 'user.*' })).toEqual([created.update, created.create]);
      expect(await ids({ actor, action: 'auth.*' })).toEqual([created.login]);
      expect(await ids({ actor, action: 'district.*' })).toEqual([]);
    });

    it('targetType and targetId (a file’s key too)', async () => {
      expect(await ids({ actor, targetType: 'user' })).toEqual([created.login, created.update, created.create]);
      expect(await ids({ targetId: target })).toEqual([created.update, created.create]);
      expect(await ids({ targetType: 'file', targetId: `uploads/image/${actor}/x.png` })).toEqual([created.file]);
      expect(await ids({ targetType: 'province', targetId: target })).toEqual([]);
    });

    it('from and to are both inclusive, to the millisecond; a date means that whole UTC day', async () => {
      expect(await ids({ actor, from: at(1000), to: at(3000) })).toEqual([created.login, created.province, created.update]);
      expect(await ids({ actor, from: at(1001), to: at(2999) })).toEqual([created.province]);
      expect(await ids({ actor, from: '2026-03-01T11:00:01+01:00' })).toEqual([created.file, created.login, created.province, created.update]);
      expect(await ids({ actor, to: at(0) })).toEqual([created.create]);
      expect(await ids({ actor, from: '2026-03-01', to: '2026-03-01' })).toHaveLength(5);
      expect(await ids({ actor, to: '2026-02-28' })).toEqual([]);
    });

    it('refuses bad filters with 400 VALIDATION_FAILED naming the field', async () => {
      const cases: [Record<string, string>, string][] = [
        [{ action: 'user.explode' }, 'action'],
        [{ action: 'nothing.*' }, 'action'],
        [{ action: '*' }, 'action'],
        [{ targetType: 'school' }, 'targetType'],
        [{ actor: 'not-a-uuid' }, 'actor'],
        [{ from: 'yesterday' }, 'from'],
        [{ to: '2026-13-01' }, 'to'],
        [{ from: '2026-03-01T10:00:00' }, 'from'],
        [{ from: at(2000), to: at(1000) }, 'to'],
        [{ page: '2' }, 'page'],
      ];
      for (const [query, field] of cases) {
        const answer = await list(query);
        expect({ query, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ query, status: 400, errorCode: 'VALIDATION_FAILED' });
        expect(answer.body.errors?.map((error) => error.field)).toContain(field);
      }
    });
  });

  describe('cursor pages', () => {
    it('limit is 1 to 200, 50 by default; anything else is 400 VALIDATION_FAILED', async () => {
      for (const limit of ['0', '201', '-1', '1.5', 'ten', '', '1e2']) {
        const answer = await list({ limit });
        expect({ limit, status: answer.status, errorCode: answer.body.errorCode, field: answer.body.errors?.[0]?.field }).toEqual({
          limit,
          status: 400,
          errorCode: 'VALIDATION_FAILED',
          field: 'limit',
        });
      }
      const actor = (await createAccount(identity, { role: 'admin' })).publicId;
      for (let i = 0; i < 52; i += 1) {
        await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(entry({ actor: { publicId: actor, role: 'admin' } })), { messageId: uuidv7() });
      }
      await recorded(entry({ actor: { publicId: actor, role: 'admin' } }));
      const first = await list({ actor });
      expect(first.body.data).toHaveLength(50);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      expect((await list({ actor, limit: '200' })).body).toMatchObject({ nextCursor: null, data: expect.arrayContaining([]) });
      expect((await list({ actor, limit: '200' })).body.data).toHaveLength(53);
      expect((await list({ actor, limit: '1' })).body.data).toHaveLength(1);
    });

    it('a tampered or made-up cursor is 400 VALIDATION_FAILED', async () => {
      const actor = (await createAccount(identity, { role: 'admin' })).publicId;
      for (let i = 0; i < 3; i += 1) await recorded(entry({ actor: { publicId: actor, role: 'admin' } }));
      const cursor = (await list({ actor, limit: '1' })).body.nextCursor!;
      expect((await list({ actor, limit: '1', cursor })).status).toBe(200);
      const flip = (at: number) => cursor.slice(0, at) + (cursor[at] === 'x' ? 'y' : 'x') + cursor.slice(at + 1);
      for (const bad of [flip(0), flip(Math.floor(cursor.length / 2)), flip(cursor.length - 1), cursor.slice(1), `${cursor}x`, 'bm90IGEgY3Vyc29y', '']) {
        const answer = await list({ actor, cursor: bad });
        expect({ bad, status: answer.status, errorCode: answer.body.errorCode }).toEqual({ bad, status: 400, errorCode: 'VALIDATION_FAILED' });
      }
    });

    it('a walk of every page with a small limit sees each entry exactly once, newest first, even when many share one instant', async () => {
      const actor = (await createAccount(identity, { role: 'admin' })).publicId;
      const instants = ['2026-05-01T00:00:00.000Z', '2026-05-01T00:00:00.001Z', '2026-05-02T00:00:00.000Z'];
      const published: { id: string; occurredAt: string }[] = [];
      for (let i = 0; i < 23; i += 1) {
        const occurredAt = instants[i % 3 === 0 ? 0 : i % 3 === 1 ? 1 : 2]!;
        const id = uuidv7();
        published.push({ id, occurredAt });
        await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(entry({ actor: { publicId: actor, role: 'admin' }, occurredAt })), { messageId: id });
      }
      await waitFor(async () => (await identity.prisma.auditEntry.count({ where: { actorPublicId: actor } })) === 23, { what: '23 entries stored' });

      const seen: AuditEntryDto[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const answer: { status: number; body: AuditPageBody } = await list({ actor, limit: '4', ...(cursor && { cursor }) });
        expect(answer.status).toBe(200);
        expect(answer.body.data.length).toBeLessThanOrEqual(4);
        seen.push(...answer.body.data);
        cursor = answer.body.nextCursor;
        pages += 1;
      } while (cursor && pages < 20);
      expect(pages).toBe(6);
      expect(seen.map((item) => item.id).sort()).toEqual(published.map((item) => item.id).sort());
      // Newest first; ties by id ascending (contract §5).
      const expected = [...published].sort((a, b) => b.occurredAt.localeCompare(a.occurredAt) || a.id.localeCompare(b.id)).map((item) => item.id);
      expect(seen.map((item) => item.id)).toEqual(expected);
    });
  });

  describe('CSV', () => {
    it('Accept: text/csv answers the same page as CSV, quoted per RFC 4180 with formulas defused, and the next cursor in X-Next-Cursor', async () => {
      const actor = (await createAccount(identity, { role: 'admin' })).publicId;
      const by = { publicId: actor, role: 'admin' };
      const tricky = await recorded(
        entry({ actor: by, occurredAt: '2026-06-01T00:00:00.000Z', userAgent: '=cmd|"/c calc"!A1, and\nmore', requestId: null, changes: { name: { from: 'a,"b"', to: null } } }),
      );
      const older = await recorded(entry({ actor: by, occurredAt: '2026-05-31T00:00:00.000Z', ip: null }));
      const json = await list({ actor, limit: '1' });

      const csv = async (query: Record<string, string>, accept = 'text/csv') =>
        fetch(`${identity.baseUrl}/api/audit-events?${new URLSearchParams(query).toString()}`, { headers: { authorization: `Bearer ${adminToken}`, accept } });
      const page1 = await csv({ actor, limit: '1' });
      expect(page1.status).toBe(200);
      expect(page1.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(page1.headers.get('x-next-cursor')).toBe(json.body.nextCursor);
      const lines = (await page1.text()).split('\r\n');
      expect(lines[0]).toBe('id,occurredAt,actorPublicId,actorEmail,actorRole,action,targetType,targetId,ip,userAgent,requestId,changes');
      expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
      const row = json.body.data[0]!;
      expect(row.id).toBe(tricky);
      expect(lines[1]).toBe(
        [
          tricky,
          '2026-06-01T00:00:00.000Z',
          actor,
          row.actor!.email,
          'admin',
          'user.update',
          'user',
          row.target!.id,
          '203.0.113.9',
          `"'=cmd|""/c calc""!A1, and\nmore"`,
          '',
          `"{""name"":{""from"":""a,\\""b\\"""",""to"":null}}"`,
        ].join(','),
      );
      expect(lines.slice(2)).toEqual(['']);

      const page2 = await csv({ actor, limit: '1', cursor: page1.headers.get('x-next-cursor')! });
      expect(page2.headers.get('x-next-cursor')).toBeNull();
      const last = (await page2.text()).split('\r\n');
      expect(last[1]?.startsWith(`${older},`)).toBe(true);
      expect(last[1]).toContain(',,jest,');

      const preferred = await csv({ actor, limit: '1' }, 'application/json');
      expect(preferred.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('errors stay JSON envelopes under Accept: text/csv', async () => {
      const answer = await fetch(`${identity.baseUrl}/api/audit-events?limit=0`, { headers: { authorization: `Bearer ${adminToken}`, accept: 'text/csv' } });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ errorCode: 'VALIDATION_FAILED', data: null });
    });
  });

  it('staff (no Audit_READ) is 403 PERMISSION_INSUFFICIENT; no token is 401', async () => {
    const staff = await createAccount(identity, { role: 'staff' });
    expect(await list({}, accessTokenFor(identity, staff))).toMatchObject({ status: 403, body: { errorCode: 'PERMISSION_INSUFFICIENT', data: null } });
    const customer = await createAccount(identity, { role: 'customer' });
    expect((await list({}, accessTokenFor(identity, customer))).status).toBe(403);
    expect((await identity.request('GET', '/api/audit-events')).status).toBe(401);
  });

  it('no route changes or deletes an entry', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect({ method, status: (await identity.request(method, '/api/audit-events', method === 'DELETE' ? undefined : {}, adminToken)).status }).toEqual({ method, status: 404 });
    }
  });

  describe('erasure (identity.user_erased)', () => {
    const erase = async (userId: string) => {
      const id = uuidv7();
      await broker.publish(
        EVENT_TYPES.userErased,
        JSON.stringify({ version: 1, userId, erasedAt: new Date().toISOString(), emailDigest: emailDigest(`${userId}@erased.example`) }),
        { messageId: id },
      );
      return id;
    };

    it('entries the account acted in keep its publicId and lose its email; entries targeting it lose its personal fields', async () => {
      const person = await createAccount(identity, { role: 'admin' });
      const personal = {
        name: { from: null, to: 'Jane Person' },
        email: { from: null, to: person.email },
        phone: { from: null, to: '+9779812345678' },
        address: { from: null, to: { provinceId: 1, districtId: 2, municipalityId: 3, ward: 4, street: 'Lane 5' } },
        role: { from: null, to: 'admin' },
      };
      const created = await recorded(entry({ action: 'user.create', target: { type: 'user', id: person.publicId }, changes: personal }));
      const acted = await recorded(
        entry({ actor: { publicId: person.publicId, role: 'admin' }, action: 'auth.login', target: { type: 'user', id: person.publicId }, changes: {} }),
      );
      const other = await recorded(
        entry({ actor: { publicId: person.publicId, role: 'admin' }, target: { type: 'user', id: randomUUID() }, changes: { name: { from: 'X', to: 'Y' } } }),
      );
      expect((await stored(acted))!.actorEmail).toBe(person.email);

      await erase(person.publicId);
      await waitFor(async () => (await stored(acted))!.actorEmail === null, { what: 'the erased actor’s email forgotten' });
      const byPerson = (await list({ actor: person.publicId })).body.data;
      expect(byPerson.map((item) => item.actor)).toEqual([
        { publicId: person.publicId, email: null, role: 'admin' },
        { publicId: person.publicId, email: null, role: 'admin' },
      ]);
      expect(byPerson.find((item) => item.id === other)!.changes).toEqual({ name: { from: 'X', to: 'Y' } });
      const aboutPerson = (await list({ targetId: person.publicId })).body.data;
      expect(aboutPerson.find((item) => item.id === created)!.changes).toEqual({ role: { from: null, to: 'admin' } });
      const everything = JSON.stringify((await list({ limit: '200' })).body.data);
      for (const trace of [person.email, 'Jane Person', '+9779812345678', 'Lane 5']) expect(everything).not.toContain(trace);
    });

    it('an entry naming the account that arrives after the erasure is stored scrubbed', async () => {
      const person = await createAccount(identity, { role: 'staff' });
      const erasure = await erase(person.publicId);
      await waitFor(() => identity.prisma.auditErasedAccount.findUnique({ where: { publicId: person.publicId } }), { what: `erasure ${erasure} handled` });
      const late = await recorded(
        entry({
          actor: { publicId: person.publicId, role: 'staff' },
          action: 'user.erase',
          target: { type: 'user', id: person.publicId },
          changes: { email: { from: person.email, to: null }, deletedAt: { from: null, to: 'now' } },
        }),
      );
      const [item] = (await list({ targetId: person.publicId })).body.data;
      expect(item).toMatchObject({ id: late, actor: { publicId: person.publicId, email: null, role: 'staff' }, changes: { deletedAt: { from: null, to: 'now' } } });
      expect(JSON.stringify(item)).not.toContain(person.email);
    });
  });

  it('retention: entries older than AUDIT_RETENTION_DAYS are removed in batches by two job instances at once; newer ones stay', async () => {
    const actor = (await createAccount(identity, { role: 'admin' })).publicId;
    const by = { publicId: actor, role: 'admin' };
    const old: string[] = [];
    for (let i = 0; i < 40; i += 1) {
      const id = uuidv7();
      old.push(id);
      await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(entry({ actor: by, occurredAt: new Date(Date.now() - (366 + i) * DAY).toISOString() })), {
        messageId: id,
      });
    }
    const kept = await recorded(entry({ actor: by, occurredAt: new Date(Date.now() - 364 * DAY).toISOString() }));
    await waitFor(async () => (await identity.prisma.auditEntry.count({ where: { actorPublicId: actor } })) === 41, { what: '41 entries stored' });

    // Two instances of the job, each with its own connection pool, as two replicas would run it.
    const config = { AUDIT_RETENTION_DAYS: 365, AMQP_PREFETCH: 1 };
    const one = new AuditRetention(identity.app.get(AuditEntriesRepository), config);
    const two = new AuditRetention(new AuditEntriesRepository(identity.prisma, new DatabaseSchema('identity')), config);
    const [a, b] = await Promise.all([one.prune(new Date(), 3), two.prune(new Date(), 3)]);
    expect(a + b).toBe(40);
    expect(await identity.prisma.auditEntry.findMany({ where: { actorPublicId: actor }, select: { id: true } })).toEqual([{ id: kept }]);
  });
});
