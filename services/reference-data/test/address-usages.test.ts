import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RpcClient } from '@school/messaging';
import { EVENT_TYPES, GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE, type EventPayload } from '@school/contracts';
import { uuidv7 } from '@school/prisma';
import type { TestBroker } from '@school/messaging/testing';
import { waitFor } from '@school/testing';
import { ADDRESS_EVENTS } from '../src/address-usages/address-usages.module.js';
import { type HttpAnswer, type ReferenceDataUnderTest, startReferenceData } from './support/reference-data-app.js';

interface Row {
  id: number;
  publicId: string;
}

type AddressChange = EventPayload<'identity.user_address_changed'>;

const MUNICIPALITIES = '/api/lookups/municipalities';

/**
 * Reference-data keeps which geography rows users' addresses name from identity's
 * `identity.user_address_changed` events (inbox, version), and refuses deletes and renames from that
 * record and the live claims of GEOGRAPHY_CHECK alone: identity is never asked (contract §9). Here,
 * the wire: the consumer's bindings, the RPC answers, dead letters; the rules themselves (versions,
 * duplicates, claims replaced or expired) are test/medium/geography.medium.test.ts.
 */
describe('geography usages from identity address events, real Postgres and RabbitMQ', () => {
  let rd: ReferenceDataUnderTest;
  let broker: TestBroker;
  let rpc: RpcClient;
  let suffix = 0;

  beforeAll(async () => {
    // One message at a time, in order: a message processed means every one published before it was.
    rd = await startReferenceData('reference_data_usages', { AMQP_PREFETCH: '1' });
    broker = await rd.broker.events();
    rpc = rd.broker.client();
    // Ready means subscribed: the queue and its binding exist, so no event published below is unroutable.
    await waitFor(async () => (await rd.request('GET', '/health/ready', undefined, null)).status === 200, { what: 'reference-data ready' });
  }, 60_000);

  afterAll(async () => {
    await rd?.close();
  });

  const created = async (path: string, body: object): Promise<Row> => {
    const answer = await rd.request('POST', path, { name: `Row ${++suffix}`, ...body });
    expect(answer.status).toBe(201);
    return answer.body.data as Row;
  };
  async function chain() {
    const p = await created('/api/lookups/provinces', {});
    const d = await created('/api/lookups/districts', { provinceId: p.id });
    const m = await created(MUNICIPALITIES, { districtId: d.id, type: 'municipality' });
    return { p, d, m, address: { provinceId: p.id, districtId: d.id, municipalityId: m.id } };
  }
  const expectStatus = (answer: HttpAnswer, status: number, errorCode: string | null = null) =>
    expect({ status: answer.status, errorCode: answer.body.errorCode }).toEqual({ status, errorCode });
  const rename = (m: Row) => rd.request('PATCH', `${MUNICIPALITIES}/${m.publicId}`, { name: `Renamed ${++suffix}` });
  const remove = (m: Row) => rd.request('DELETE', `${MUNICIPALITIES}/${m.publicId}`);

  /** Publishes as identity's relay does (message id = outbox row id) and waits until the inbox has it. */
  async function delivered(change: AddressChange, messageId: string = uuidv7()): Promise<string> {
    await broker.publish(EVENT_TYPES.userAddressChanged, JSON.stringify(change), { messageId });
    await waitFor(() => rd.prisma.processedMessage.findUnique({ where: { messageId } }), { what: `message ${messageId} processed` });
    return messageId;
  }
  const usageOf = (userId: string) => rd.prisma.geographyUsage.findUnique({ where: { userId } });

  it('an address event records the usage: the rows are refused delete and rename; a later removal frees them', async () => {
    const { m, address } = await chain();
    const userId = randomUUID();
    await delivered({ userId, address, version: 1, claimId: null });
    expect(await usageOf(userId)).toMatchObject({ ...address, version: 1 });
    expectStatus(await remove(m), 409, 'GEOGRAPHY_IN_USE');
    expectStatus(await rename(m), 409, 'GEOGRAPHY_RENAME_REFERENCED');
    expect(await rd.prisma.municipality.findUnique({ where: { id: m.id } })).not.toBeNull();

    await delivered({ userId, address: null, version: 2, claimId: null });
    expect(await usageOf(userId)).toMatchObject({ provinceId: null, districtId: null, municipalityId: null, version: 2 });
    expectStatus(await remove(m), 200);
  });

  it('a claim identity releases (the write that relied on it was refused) frees the rows at once', async () => {
    const { m, address } = await chain();
    const answer = await rpc.call(GEOGRAPHY_CHECK, address);
    if (!answer.valid) throw new Error('the chain should be a valid address');
    expectStatus(await remove(m), 409, 'GEOGRAPHY_IN_USE');
    expect(await rpc.call(GEOGRAPHY_RELEASE, { claimId: answer.claimId })).toEqual({ released: true });
    expect(await rpc.call(GEOGRAPHY_RELEASE, { claimId: answer.claimId })).toEqual({ released: false });
    expectStatus(await remove(m), 200);
  });

  it('an erasure (identity.user_erased) frees the rows its address alone used, and no address event delivered late writes it back', async () => {
    const { m, address } = await chain();
    const userId = randomUUID();
    await delivered({ userId, address, version: 4, claimId: null });
    expectStatus(await remove(m), 409, 'GEOGRAPHY_IN_USE');

    const erasure = { version: 1, userId, erasedAt: new Date().toISOString(), emailDigest: 'a'.repeat(64) };
    const messageId = uuidv7();
    await broker.publish(EVENT_TYPES.userErased, JSON.stringify(erasure), { messageId });
    await waitFor(() => rd.prisma.processedMessage.findUnique({ where: { messageId } }), { what: 'the erasure processed' });
    await broker.publish(EVENT_TYPES.userErased, JSON.stringify(erasure), { messageId });
    await delivered({ userId, address, version: 5, claimId: null });
    expect(await usageOf(userId)).toMatchObject({ provinceId: null, districtId: null, municipalityId: null });
    expectStatus(await remove(m), 200);
  });

  it('an event that breaks its schema goes to the dead-letter queue and changes nothing', async () => {
    const userId = randomUUID();
    const dlq = broker.consumer(ADDRESS_EVENTS.consumer).deadLetterQueue;
    await broker.publish(EVENT_TYPES.userAddressChanged, JSON.stringify({ userId, address: null, version: 0, claimId: null }), { messageId: uuidv7() });
    await waitFor(async () => ((await broker.messageCount(dlq)) ?? 0) > 0, { what: 'the poison message dead-lettered' });
    expect(await usageOf(userId)).toBeNull();
  });
});
