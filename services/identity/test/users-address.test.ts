import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccount, identitySuite, me, refresh, signIn, uniqueEmail } from './kit/index.js';
import { type GeographyStandIn, geographyStandIn, KATHMANDU } from './kit/geography.js';

const SERVICE_UNAVAILABLE = { message: 'Service temporarily unavailable', data: null, errorCode: 'SERVICE_UNAVAILABLE' };

/**
 * Users' address on the wire: 503 while reference-data does not answer, the address in every
 * profile (created, GET, the list, login, refresh, me), a refusal naming the field, the body's
 * validation before reference-data is asked. The address's rules (what is stored, each refusal,
 * replacing and clearing, the event's versions and claims, a refused write's claim released) are
 * test/medium/users.medium.test.ts.
 */
describe("users' address (contract §6): checked with reference-data over RabbitMQ, its committed value told through the outbox", () => {
  const identity = identitySuite();
  let adminToken: string;
  let geography: GeographyStandIn;

  beforeAll(async () => {
    adminToken = (await signIn(identity, await createAccount(identity, { role: 'admin' }))).accessToken;
    geography = geographyStandIn(identity.brokerPrefix);
  });

  afterAll(() => geography?.close());

  const startGeography = () => geography.start();
  const stopGeography = () => geography.stop();

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
      expect((await call('GET', `/api/users/${profile.publicId}`)).body.data).toMatchObject({ address: stored });
      const list = await call('GET', `/api/users?search=${encodeURIComponent((answer.body.data as { email: string }).email)}`);
      expect(list.body.data).toEqual([expect.objectContaining({ address: stored })]);
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

    it('refuses an unknown province: 400 VALIDATION_FAILED naming the field, nothing created or changed', async () => {
      const [address, field, message] = [{ provinceId: 9, districtId: 10, municipalityId: 100 }, 'address.provinceId', 'no such province'];
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
      const before = geography.asked.length;
      const answer = await createUser({ address });
      expect(answer.status).toBe(400);
      expect(answer.body.errorCode).toBe('VALIDATION_FAILED');
      expect(answer.body.errors?.map((error) => error.field)).toEqual([field]);
      expect(geography.asked.length).toBe(before);
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
