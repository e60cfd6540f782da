import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { RpcClient } from '@school/messaging';
import { GEOGRAPHY_CHECK } from '@school/contracts';
import { type HttpAnswer, type ReferenceDataUnderTest, startReferenceData } from './support/reference-data-app.js';

interface Row {
  id: number;
  publicId: string;
  name: string;
}

const PROFILE = '/api/school-profile';

describe('school profile (contract §6) and the GEOGRAPHY_CHECK answers, real Postgres and RabbitMQ', () => {
  let rd: ReferenceDataUnderTest;
  let rpc: RpcClient;
  let suffix = 0;

  beforeAll(async () => {
    rd = await startReferenceData();
    rpc = rd.broker.client();
  }, 60_000);

  afterAll(async () => {
    await rd?.close();
  });

  const data = <T>(answer: HttpAnswer) => answer.body.data as T;
  const expectError = (answer: HttpAnswer, status: number, errorCode: string) => {
    expect({ status: answer.status, errorCode: answer.body.errorCode }).toEqual({ status, errorCode });
  };
  async function chain() {
    suffix += 1;
    const p = data<Row>(await rd.request('POST', '/api/lookups/provinces', { name: `Profile province ${suffix}` }));
    const d = data<Row>(await rd.request('POST', '/api/lookups/districts', { provinceId: p.id, name: `Profile district ${suffix}` }));
    const m = data<Row>(await rd.request('POST', '/api/lookups/municipalities', { districtId: d.id, name: `Profile town ${suffix}`, type: 'municipality' }));
    return { p, d, m };
  }
  const address = (c: Awaited<ReturnType<typeof chain>>) => ({ provinceId: c.p.id, districtId: c.d.id, municipalityId: c.m.id });

  describe('GET / PUT /api/school-profile', () => {
    it('answers 401 without a token and 403 to staff and customers', async () => {
      for (const [method, body] of [
        ['GET', undefined],
        ['PUT', {}],
      ] as const) {
        expectError(await rd.request(method, PROFILE, body, null), 401, 'AUTH_UNAUTHENTICATED');
        expectError(await rd.request(method, PROFILE, body, rd.tokens.staff), 403, 'PERMISSION_INSUFFICIENT');
        expectError(await rd.request(method, PROFILE, body, rd.tokens.customer), 403, 'PERMISSION_INSUFFICIENT');
      }
    });

    it('GET before any PUT answers 200 with data null; PUT stores the whole profile and GET shows it', async () => {
      const before = await rd.request('GET', PROFILE);
      expect(before.status).toBe(200);
      expect(before.body).toEqual({ message: expect.any(String), data: null, errorCode: null });

      const c = await chain();
      const body = { name: '  Shree School  ', ...address(c), ward: 4, street: 'Line one\nLine two', phone: '+9779812345678', email: 'Office@School.example' };
      const put = await rd.request('PUT', PROFILE, body);
      expect(put.status).toBe(200);
      const expected = { name: 'Shree School', ...address(c), ward: 4, street: 'Line one\nLine two', phone: '+9779812345678', email: 'office@school.example' };
      expect(data(put)).toEqual({ ...expected, createdAt: expect.any(String), updatedAt: expect.any(String) });
      expect(data(await rd.request('GET', PROFILE))).toEqual(data(put));

      // A PUT replaces: optional fields left out become null.
      const replaced = await rd.request('PUT', PROFILE, { name: 'Shree School', ...address(c) });
      expect(data(replaced)).toMatchObject({ ward: null, street: null, phone: null, email: null });
    });

    it('refuses ids that do not exist or do not nest with 400 VALIDATION_FAILED, changing nothing', async () => {
      const a = await chain();
      const b = await chain();
      await rd.request('PUT', PROFILE, { name: 'Kept', ...address(a) });
      for (const [ids, field] of [
        [{ ...address(a), provinceId: 999_999 }, 'provinceId'],
        [{ ...address(a), districtId: 999_999 }, 'districtId'],
        [{ ...address(a), municipalityId: 999_999 }, 'municipalityId'],
        [{ ...address(a), districtId: b.d.id }, 'districtId'],
        [{ ...address(a), municipalityId: b.m.id }, 'municipalityId'],
      ] as const) {
        const answer = await rd.request('PUT', PROFILE, { name: 'Changed', ...ids });
        expectError(answer, 400, 'VALIDATION_FAILED');
        expect(answer.body.errors?.map((error) => error.field)).toEqual([field]);
      }
      expect(data(await rd.request('GET', PROFILE))).toMatchObject({ name: 'Kept', ...address(a) });
    });

    it('refuses bodies out of bounds with 400 VALIDATION_FAILED', async () => {
      const c = await chain();
      const ok = { name: 'School', ...address(c) };
      for (const body of [
        {},
        { ...ok, name: '' },
        { ...ok, name: 'x'.repeat(121) },
        { ...ok, name: 'Two\nlines' },
        { ...ok, provinceId: '1' },
        { ...ok, ward: 0 },
        { ...ok, ward: 36 },
        { ...ok, ward: 1.5 },
        { ...ok, street: 'x'.repeat(256) },
        { ...ok, street: 'bell\u0007' },
        { ...ok, phone: '9812345678' },
        { ...ok, email: 'not-an-email' },
        { ...ok, email: `${'x'.repeat(250)}@example.com` },
        { ...ok, logo: 'x' },
      ]) {
        expectError(await rd.request('PUT', PROFILE, body), 400, 'VALIDATION_FAILED');
      }
      expect((await rd.request('PUT', PROFILE, { ...ok, ward: 35, street: 'x'.repeat(255) })).status).toBe(200);
    });

    it("counts as a reference: the profile's province, district and municipality cannot be renamed, moved or deleted", async () => {
      const c = await chain();
      expect((await rd.request('PUT', PROFILE, { name: 'School', ...address(c) })).status).toBe(200);
      const other = await chain();
      expectError(await rd.request('PATCH', `/api/lookups/municipalities/${c.m.publicId}`, { name: 'Renamed' }), 409, 'GEOGRAPHY_RENAME_REFERENCED');
      expectError(await rd.request('PATCH', `/api/lookups/municipalities/${c.m.publicId}`, { districtId: other.d.id }), 409, 'GEOGRAPHY_RENAME_REFERENCED');
      expectError(await rd.request('DELETE', `/api/lookups/municipalities/${c.m.publicId}`), 409, 'GEOGRAPHY_IN_USE');
      expectError(await rd.request('DELETE', `/api/lookups/districts/${c.d.publicId}`), 409, 'GEOGRAPHY_IN_USE');
      expectError(await rd.request('DELETE', `/api/lookups/provinces/${c.p.publicId}`), 409, 'GEOGRAPHY_IN_USE');
      expect((await rd.request('PATCH', `/api/lookups/municipalities/${c.m.publicId}`, { isActive: false })).status).toBe(200);

      // Once the profile points elsewhere, the old municipality is free again.
      expect((await rd.request('PUT', PROFILE, { name: 'School', ...address(other) })).status).toBe(200);
      expect((await rd.request('DELETE', `/api/lookups/municipalities/${c.m.publicId}`)).status).toBe(200);
    });
  });

  describe('GEOGRAPHY_CHECK, served to identity', () => {
    it('answers valid for ids that exist and nest, retired rows included', async () => {
      const c = await chain();
      expect(await rpc.call(GEOGRAPHY_CHECK, address(c))).toEqual({ valid: true, claimId: expect.any(String) });
      await rd.request('PATCH', `/api/lookups/municipalities/${c.m.publicId}`, { isActive: false });
      await rd.request('PATCH', `/api/lookups/provinces/${c.p.publicId}`, { isActive: false });
      expect(await rpc.call(GEOGRAPHY_CHECK, address(c))).toEqual({ valid: true, claimId: expect.any(String) });
    });

    it('names the first missing id, then the first pair that does not nest', async () => {
      const a = await chain();
      const b = await chain();
      expect(await rpc.call(GEOGRAPHY_CHECK, { ...address(a), provinceId: 999_999 })).toEqual({ valid: false, reason: 'province_not_found' });
      expect(await rpc.call(GEOGRAPHY_CHECK, { ...address(a), districtId: 999_999 })).toEqual({ valid: false, reason: 'district_not_found' });
      expect(await rpc.call(GEOGRAPHY_CHECK, { ...address(a), municipalityId: 999_999 })).toEqual({ valid: false, reason: 'municipality_not_found' });
      expect(await rpc.call(GEOGRAPHY_CHECK, { ...address(a), districtId: b.d.id })).toEqual({ valid: false, reason: 'district_not_in_province' });
      expect(await rpc.call(GEOGRAPHY_CHECK, { ...address(a), municipalityId: b.m.id })).toEqual({ valid: false, reason: 'municipality_not_in_district' });
    });
  });
});
