import { randomUUID } from 'node:crypto';
import { EVENT_TYPES, type AuditEntryDto, type EventPayload } from '@school/contracts';
import { TestBroker } from '@school/messaging/testing';
import { uuidv7 } from '@school/prisma';
import { type RunningSystem, startSystem } from '@school/system-harness';
import { waitFor } from '@school/testing';

/**
 * Contract §13 under a fault: the audit store (identity's consumer) is killed while services keep
 * publishing `audit.entry_recorded`, some of them twice (a relay that lost a confirm publishes
 * again under the same id), and then started again: every entry arrives, none twice. The system
 * is the suite's own: it kills a process.
 */

type RecordedEntry = EventPayload<'audit.entry_recorded'>;

interface Page {
  data: AuditEntryDto[];
  nextCursor: string | null;
}

describe('audit store with identity killed while entries are published', () => {
  let system: RunningSystem;
  let broker: TestBroker;
  let admin: { accessToken: string; publicId: string };

  beforeAll(async () => {
    system = await startSystem({ label: 'audit-faults', services: ['identity'] });
    broker = await TestBroker.connect(system.brokerPrefix);
    const login = await fetch(`${system.gatewayUrl}/api/auth/login/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com', password: 'Admin123!' }),
    });
    expect(login.status).toBe(200);
    const data = ((await login.json()) as { data: { accessToken: string; user: { publicId: string } } }).data;
    admin = { accessToken: data.accessToken, publicId: data.user.publicId };
  }, 180_000);

  afterAll(async () => {
    await broker?.close();
    await system?.shutdown();
  });

  /** Every entry about `target`, walking the pages 7 at a time through the gateway. */
  async function walk(target: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const query = new URLSearchParams({ targetId: target, limit: '7', ...(cursor && { cursor }) });
      const answer = await fetch(`${system.gatewayUrl}/api/audit-events?${query.toString()}`, { headers: { authorization: `Bearer ${admin.accessToken}` } });
      if (answer.status !== 200) return ids;
      const page = (await answer.json()) as Page;
      ids.push(...page.data.map((item) => item.id));
      cursor = page.nextCursor;
    } while (cursor);
    return ids;
  }

  it('every entry published before, during and after the outage is listed exactly once', async () => {
    const target = randomUUID();
    const entry = (at: number): RecordedEntry => ({
      occurredAt: new Date(Date.parse('2026-07-01T00:00:00.000Z') + Math.floor(at / 4)).toISOString(),
      actor: { publicId: admin.publicId, role: 'admin' },
      action: 'user.update',
      target: { type: 'user', id: target },
      changes: { banned: { from: at % 2 === 0, to: at % 2 !== 0 } },
      ip: null,
      userAgent: null,
      requestId: null,
    });
    const published = new Map<string, RecordedEntry>();
    const publish = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        const id = uuidv7();
        const payload = entry(published.size);
        published.set(id, payload);
        await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(payload), { messageId: id });
      }
    };

    // A burst the consumer is still working through when it is killed.
    const burst = publish(60);
    await waitFor(async () => (await walk(target)).length > 0, { what: 'the first entries stored' });
    await system.stop('identity', 'SIGKILL');
    await burst;
    await publish(40);
    // The same events again, under their ids.
    for (const [id, payload] of [...published].slice(0, 25)) {
      await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(payload), { messageId: id });
    }

    await system.restart('identity');
    await publish(10);
    const listed = await waitFor(
      async () => {
        const ids = await walk(target);
        return ids.length >= published.size ? ids : null;
      },
      { timeoutMs: 60_000, what: `all ${published.size} entries listed` },
    );
    expect(listed).toHaveLength(published.size);
    expect(new Set(listed)).toEqual(new Set(published.keys()));
    // Nothing more arrives afterwards (no late duplicate).
    await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(entry(0)), { messageId: [...published.keys()][0]! });
    const marker = uuidv7();
    published.set(marker, entry(published.size));
    await broker.publish(EVENT_TYPES.auditEntryRecorded, JSON.stringify(published.get(marker)), { messageId: marker });
    const after = await waitFor(async () => {
      const ids = await walk(target);
      return ids.includes(marker) ? ids : null;
    });
    expect(after).toHaveLength(published.size);
  });
});
