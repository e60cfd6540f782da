import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { AmqpConnection, RpcClient, RpcServer, silentLogger } from '@school/messaging';
import { EVENT_TYPES, GEOGRAPHY_CHECK, GEOGRAPHY_RELEASE, type RpcAnswer, type RpcRequest } from '@school/contracts';
import { TEST_AMQP_URL } from '@school/messaging/testing';
import { createAccount, eventsOf, identitySuite, me, recordedEvents, refresh, signIn, uniqueEmail } from './kit/index.js';
import { scaled } from '@school/testing';

/**
 * Reference-data's geography as the stand-in below knows it: province 1 holds district 10, which
 * holds municipality 100; province 2 holds district 20, which holds municipality 200.
 */
const PROVINCES = new Set([1, 2]);
const DISTRICT_PROVINCE = new Map([
  [10, 1],
  [20, 2],
]);
const MUNICIPALITY_DISTRICT = new Map([
  [100, 10],
  [200, 20],
]);

/** The claim ids the stand-in answered, in order, and those identity released. */
const claims: string[] = [];
const released: string[] = [];

/** Answers GEOGRAPHY_CHECK as reference-data does, from the geography above, with a new claim each time. */
function checkGeography({ provinceId, districtId, municipalityId }: RpcRequest<typeof GEOGRAPHY_CHECK>): RpcAnswer<typeof GEOGRAPHY_CHECK> {
  if (!PROVINCES.has(provinceId)) return { valid: false, reason: 'province_not_found' };
  const districtProvince = DISTRICT_PROVINCE.get(districtId);
  if (districtProvince === undefined) return { valid: false, reason: 'district_not_found' };
  const municipalityDistrict = MUNICIPALITY_DISTRICT.get(municipalityId);
  if (municipalityDistrict === undefined) return { valid: false, reason: 'municipality_not_found' };
  if (districtProvince !== provinceId) return { valid: false, reason: 'district_not_in_province' };
  if (municipalityDistrict !== districtId) return { valid: false, reason: 'municipality_not_in_district' };
  claims.push(randomUUID());
  return { valid: true, claimId: claims.at(-1) as string };
}

const KATHMANDU = { provinceId: 1, districtId: 10, municipalityId: 100 };
const SERVICE_UNAVAILABLE = { message: 'Service temporarily unavailable', data: null, errorCode: 'SERVICE_UNAVAILABLE' };

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + scaled(10_000);
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("users' address (contract §6): checked with reference-data over RabbitMQ, its committed value told through the outbox", () => {
  const identity = identitySuite();
  let adminToken: string;
  let connection: AmqpConnection;
  let client: RpcClient;
  let geography: RpcServer | undefined;
  const asked: RpcRequest<typeof GEOGRAPHY_CHECK>[] = [];

  beforeAll(async () => {
    adminToken = (await signIn(identity, await createAccount(identity, { role: 'admin' }))).accessToken;
    connection = new AmqpConnection({ url: TEST_AMQP_URL, name: 'reference-data-stand-in', logger: silentLogger, reconnect: { initialMs: 100, maxMs: 400 } });
    client = new RpcClient(connection, { prefix: identity.brokerPrefix, logger: silentLogger, defaultTimeoutMs: scaled(2_000) });
    await until(() => client.isReady(), 'the RPC reply consumer');
  });

  afterAll(async () => {
    await geography?.stop();
    await client?.close();
    await connection?.close();
  });

  async function startGeography(): Promise<void> {
    const server = new RpcServer(connection, {
      prefix: identity.brokerPrefix,
      routes: [
        {
          contract: GEOGRAPHY_CHECK,
          handler: (request) => (asked.push(request as RpcRequest<typeof GEOGRAPHY_CHECK>), checkGeography(request as RpcRequest<typeof GEOGRAPHY_CHECK>)),
        },
        { contract: GEOGRAPHY_RELEASE, handler: (request) => (released.push((request as RpcRequest<typeof GEOGRAPHY_RELEASE>).claimId), { released: true }) },
      ],
      prefetch: 10,
      logger: silentLogger,
    });
    server.start();
    geography = server;
    await until(() => server.isConsuming(), 'the GEOGRAPHY_CHECK server');
  }

  async function stopGeography(): Promise<void> {
    await geography?.stop();
    geography = undefined;
  }

  const call = (method: string, path: string, body?: unknown) => identity.request(method, path, body, adminToken);
  const createUser = (extra: Record<string, unknown> = {}) => call('POST', '/api/users', { email: uniqueEmail('addressed'), name: 'Sita Sharma', role: 'customer', ...extra });
  const usersWithEmail = (email: string) => identity.prisma.user.count({ where: { email } });
  const addressColumnsOf = (publicId: string) =>
    identity.prisma.user.findUniqueOrThrow({
      where: { publicId },
      select: { addressProvinceId: true, addressDistrictId: true, addressMunicipalityId: true, addressWard: true, addressStreet: true },
    });

  describe('with no reference-data serving GEOGRAPHY_CHECK', () => {
    it('a create with an address answers 503 SERVICE_UNAVAILABLE and creates nothing', async () => {
      const email = uniqueEmail('unchecked');
      expect(await call('POST', '/api/users', { email, name: 'Unchecked', role: 'customer', address: KATHMANDU })).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
      expect(await usersWithEmail(email)).toBe(0);
    });

    it('a create without an address does not ask reference-data', async () => {
      const answer = await createUser();
      expect(answer.status).toBe(201);
      expect(answer.body.data).toMatchObject({ address: null });
    });

    it('a patch with an address answers 503 and changes nothing, not even its other fields', async () => {
      const { publicId } = (await createUser()).body.data as { publicId: string };
      expect(await call('PATCH', `/api/users/${publicId}`, { name: 'Renamed', address: KATHMANDU })).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
      const row = await identity.prisma.user.findUniqueOrThrow({ where: { publicId } });
      expect(row).toMatchObject({ name: 'Sita Sharma', addressProvinceId: null, addressMunicipalityId: null });
    });
  });

  describe('with reference-data answering', () => {
    beforeAll(startGeography);
    afterAll(stopGeography);

    it('stores a valid address and returns it in the created profile, GET and the list', async () => {
      const address = { ...KATHMANDU, ward: 7, street: '  Tole 3,\nnear the temple ' };
      const answer = await createUser({ address });
      expect(answer.status).toBe(201);
      const profile = answer.body.data as { publicId: string; address: unknown };
      const stored = { ...KATHMANDU, ward: 7, street: 'Tole 3,\nnear the temple' };
      expect(profile.address).toEqual(stored);
      expect(asked).toContainEqual(KATHMANDU);
      expect(await addressColumnsOf(profile.publicId)).toEqual({
        addressProvinceId: 1,
        addressDistrictId: 10,
        addressMunicipalityId: 100,
        addressWard: 7,
        addressStreet: stored.street,
      });
      expect((await call('GET', `/api/users/${profile.publicId}`)).body.data).toMatchObject({ address: stored });
      const list = await call('GET', `/api/users?search=${encodeURIComponent((answer.body.data as { email: string }).email)}`);
      expect(list.body.data).toEqual([expect.objectContaining({ address: stored })]);
    });

    it('ward and street are optional: null in the profile', async () => {
      const answer = await createUser({ address: KATHMANDU });
      expect(answer.status).toBe(201);
      expect((answer.body.data as { address: unknown }).address).toEqual({ ...KATHMANDU, ward: null, street: null });
    });

    it('shows the address in the profile of login, refresh and me', async () => {
      const user = await createAccount(identity);
      expect((await call('PATCH', `/api/users/${user.publicId}`, { address: { provinceId: 2, districtId: 20, municipalityId: 200, ward: 1 } })).status).toBe(200);
      const session = await signIn(identity, user);
      const address = { provinceId: 2, districtId: 20, municipalityId: 200, ward: 1, street: null };
      expect(session.user).toMatchObject({ address });
      expect((await me(identity, 'mobile', session.accessToken)).body.data).toMatchObject({ address });
      expect((await refresh(identity, 'mobile', session.refreshToken)).body.data).toMatchObject({ user: { address } });
    });

    it.each([
      ['an unknown province', { provinceId: 9, districtId: 10, municipalityId: 100 }, 'address.provinceId', 'no such province'],
      ['an unknown district', { provinceId: 1, districtId: 99, municipalityId: 100 }, 'address.districtId', 'no such district'],
      ['an unknown municipality', { provinceId: 1, districtId: 10, municipalityId: 999 }, 'address.municipalityId', 'no such municipality'],
      ['a district of another province', { provinceId: 1, districtId: 20, municipalityId: 200 }, 'address.districtId', 'is not a district of the province'],
      ['a municipality of another district', { provinceId: 1, districtId: 10, municipalityId: 200 }, 'address.municipalityId', 'is not a municipality of the district'],
    ])('refuses %s: 400 VALIDATION_FAILED naming the field, nothing created or changed', async (_case, address, field, message) => {
      const email = uniqueEmail('refused');
      const refused = { status: 400, body: { message: 'Validation failed', data: null, errorCode: 'VALIDATION_FAILED', errors: [{ field, message }] } };
      expect(await call('POST', '/api/users', { email, name: 'Refused', role: 'customer', address })).toEqual(refused);
      expect(await usersWithEmail(email)).toBe(0);

      const { publicId } = (await createUser({ address: KATHMANDU })).body.data as { publicId: string };
      expect(await call('PATCH', `/api/users/${publicId}`, { address })).toEqual(refused);
      expect(await addressColumnsOf(publicId)).toMatchObject({ addressProvinceId: 1, addressDistrictId: 10, addressMunicipalityId: 100 });
    });

    it.each([
      ['a missing municipalityId', { provinceId: 1, districtId: 10 }, 'address.municipalityId'],
      ['a string id', { ...KATHMANDU, provinceId: '1' }, 'address.provinceId'],
      ['a zero id', { ...KATHMANDU, districtId: 0 }, 'address.districtId'],
      ['a fractional id', { ...KATHMANDU, municipalityId: 1.5 }, 'address.municipalityId'],
      ['an id beyond integer', { ...KATHMANDU, provinceId: 2_147_483_648 }, 'address.provinceId'],
      ['ward 0', { ...KATHMANDU, ward: 0 }, 'address.ward'],
      ['ward 100', { ...KATHMANDU, ward: 100 }, 'address.ward'],
      ['a fractional ward', { ...KATHMANDU, ward: 2.5 }, 'address.ward'],
      ['a street of 256 characters', { ...KATHMANDU, street: 'x'.repeat(256) }, 'address.street'],
      ['a blank street', { ...KATHMANDU, street: '   ' }, 'address.street'],
      ['a street with a control character', { ...KATHMANDU, street: 'Tole\u0007' }, 'address.street'],
      ['an undeclared field', { ...KATHMANDU, country: 'NP' }, 'address.country'],
      ['an address that is no object', 'Kathmandu', 'address'],
    ])('refuses %s before asking reference-data: 400 naming the field', async (_case, address, field) => {
      const before = asked.length;
      const answer = await createUser({ address });
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
      expect(answer.body.errors?.map((error) => error.field)).toEqual([field]);
      expect(asked.length).toBe(before);
    });

    it('accepts a 255-character street and wards 1 and 99 (wardCount never constrains the stored ward)', async () => {
      for (const extra of [{ street: 's'.repeat(255), ward: 1 }, { ward: 99 }]) {
        expect((await createUser({ address: { ...KATHMANDU, ...extra } })).status).toBe(201);
      }
    });

    it('PATCH replaces the address, `address: null` clears it, and a patch without address keeps it', async () => {
      const { publicId } = (await createUser({ address: { ...KATHMANDU, ward: 3, street: 'Old street' } })).body.data as { publicId: string };
      const moved = await call('PATCH', `/api/users/${publicId}`, { address: { provinceId: 2, districtId: 20, municipalityId: 200 } });
      expect(moved.status).toBe(200);
      expect((moved.body.data as { address: unknown }).address).toEqual({ provinceId: 2, districtId: 20, municipalityId: 200, ward: null, street: null });

      const renamed = await call('PATCH', `/api/users/${publicId}`, { name: 'Renamed' });
      expect((renamed.body.data as { address: unknown }).address).toEqual({ provinceId: 2, districtId: 20, municipalityId: 200, ward: null, street: null });

      const asking = asked.length;
      const cleared = await call('PATCH', `/api/users/${publicId}`, { address: null });
      expect(cleared.status).toBe(200);
      expect((cleared.body.data as { address: unknown }).address).toBeNull();
      expect(asked.length).toBe(asking);
      expect(await addressColumnsOf(publicId)).toEqual({ addressProvinceId: null, addressDistrictId: null, addressMunicipalityId: null, addressWard: null, addressStreet: null });
    });
  });

  describe('identity.user_address_changed, recorded with each address write', () => {
    beforeAll(startGeography);
    afterAll(stopGeography);

    const changesOf = (publicId: string) => eventsOf(identity, EVENT_TYPES.userAddressChanged, publicId);

    it('carries the committed ids, a version that grows with each address write, and the claim the write relied on', async () => {
      const { publicId } = (await createUser({ address: { ...KATHMANDU, ward: 2 } })).body.data as { publicId: string };
      const created = claims.at(-1);
      expect(await changesOf(publicId)).toEqual([{ userId: publicId, address: KATHMANDU, version: 1, claimId: created }]);

      const other = { provinceId: 2, districtId: 20, municipalityId: 200 };
      expect((await call('PATCH', `/api/users/${publicId}`, { address: other })).status).toBe(200);
      const moved = claims.at(-1);
      // No address in the body, no event; a soft delete keeps the address (it still counts as a reference).
      expect((await call('PATCH', `/api/users/${publicId}`, { name: 'Renamed' })).status).toBe(200);
      expect((await call('PATCH', `/api/users/${publicId}`, { address: null })).status).toBe(200);
      expect((await call('DELETE', `/api/users/${publicId}`)).status).toBe(200);

      expect(await changesOf(publicId)).toEqual([
        { userId: publicId, address: KATHMANDU, version: 1, claimId: created },
        { userId: publicId, address: other, version: 2, claimId: moved },
        { userId: publicId, address: null, version: 3, claimId: null },
      ]);
      expect(new Set([created, moved]).size).toBe(2);
    });

    it('a write that is refused records no event and releases its claim; a committed one keeps it', async () => {
      const taken = uniqueEmail('taken');
      expect((await createUser({ email: taken })).status).toBe(201);
      const before = await recordedEvents(identity, [EVENT_TYPES.userAddressChanged]);
      const asking = claims.length;
      const refused = await createUser({ email: taken, address: KATHMANDU });
      expect(refused).toMatchObject({ status: 409, body: { errorCode: 'USER_EMAIL_TAKEN' } });
      expect(claims.length).toBe(asking + 1);
      expect(await recordedEvents(identity, [EVENT_TYPES.userAddressChanged])).toEqual(before);
      await until(() => released.includes(claims.at(-1) as string), "the refused write's claim released");
      expect(released).toEqual([claims.at(-1)]);
      expect((await identity.prisma.user.findMany({ where: { email: taken } })).map((user) => user.addressVersion)).toEqual([0]);
    });
  });

  describe('with reference-data stopped after it served', () => {
    it('a create with an address answers 503 at the deadline and creates nothing', async () => {
      await startGeography();
      await stopGeography();
      const email = uniqueEmail('late');
      expect(await call('POST', '/api/users', { email, name: 'Late', role: 'customer', address: KATHMANDU })).toEqual({ status: 503, body: SERVICE_UNAVAILABLE });
      expect(await usersWithEmail(email)).toBe(0);
    }, 15_000);
  });
});
