import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { GeographyRowDto } from '@school/contracts';
import { type HttpAnswer, type ReferenceDataUnderTest, startReferenceData } from './support/reference-data-app.js';

type Row = GeographyRowDto;

const PROVINCES = '/api/lookups/provinces';
const DISTRICTS = '/api/lookups/districts';
const MUNICIPALITIES = '/api/lookups/municipalities';
const DEVANAGARI = /^[\u0900-\u097F\s-]+$/;
const UNKNOWN_UUID = '0190b6a4-0000-7000-8000-000000000000';

describe('geography lookups (spec §4.7) through HTTP, real Postgres and RabbitMQ', () => {
  let rd: ReferenceDataUnderTest;
  let suffix = 0;
  const unique = (label: string) => `${label} ${++suffix}`;

  beforeAll(async () => {
    rd = await startReferenceData();
  }, 60_000);

  afterAll(async () => {
    await rd?.close();
  });

  const data = <T>(answer: HttpAnswer) => answer.body.data as T;
  const post = (path: string, body: unknown) => rd.request('POST', path, body);
  const patch = (path: string, publicId: string, body: unknown) => rd.request('PATCH', `${path}/${publicId}`, body);
  const del = (path: string, publicId: string) => rd.request('DELETE', `${path}/${publicId}`);
  const expectError = (answer: HttpAnswer, status: number, errorCode: string) => {
    expect({ status: answer.status, errorCode: answer.body.errorCode }).toEqual({ status, errorCode });
    expect(answer.body.data).toBeNull();
  };

  async function province(name = unique('Province')): Promise<Row> {
    const answer = await post(PROVINCES, { name });
    expect(answer.status).toBe(201);
    return data<Row>(answer);
  }
  async function district(provinceId: number, name = unique('District')): Promise<Row> {
    const answer = await post(DISTRICTS, { provinceId, name });
    expect(answer.status).toBe(201);
    return data<Row>(answer);
  }
  async function municipality(districtId: number, name = unique('Municipality')): Promise<Row> {
    const answer = await post(MUNICIPALITIES, { districtId, name, type: 'municipality', wardCount: 9 });
    expect(answer.status).toBe(201);
    return data<Row>(answer);
  }
  async function chain() {
    const p = await province();
    const d = await district(p.id);
    const m = await municipality(d.id);
    return { p, d, m };
  }

  describe('authentication and permissions (spec §5)', () => {
    const routes: Array<[string, string]> = [
      ['GET', PROVINCES],
      ['POST', PROVINCES],
      ['PATCH', `${PROVINCES}/${UNKNOWN_UUID}`],
      ['DELETE', `${PROVINCES}/${UNKNOWN_UUID}`],
      ['GET', DISTRICTS],
      ['POST', DISTRICTS],
      ['PATCH', `${DISTRICTS}/${UNKNOWN_UUID}`],
      ['DELETE', `${DISTRICTS}/${UNKNOWN_UUID}`],
      ['GET', MUNICIPALITIES],
      ['POST', MUNICIPALITIES],
      ['PATCH', `${MUNICIPALITIES}/${UNKNOWN_UUID}`],
      ['DELETE', `${MUNICIPALITIES}/${UNKNOWN_UUID}`],
    ];

    it('answers 401 without a token and 403 to staff and customers on each of the twelve routes', async () => {
      for (const [method, path] of routes) {
        const body = method === 'POST' || method === 'PATCH' ? {} : undefined;
        expectError(await rd.request(method, path, body, null), 401, 'AUTH_UNAUTHENTICATED');
        expectError(await rd.request(method, path, body, rd.tokens.staff), 403, 'PERMISSION_INSUFFICIENT');
        expectError(await rd.request(method, path, body, rd.tokens.customer), 403, 'PERMISSION_INSUFFICIENT');
      }
    });
  });

  describe('seeds', () => {
    it('hold Nepal: 7 provinces, 77 districts, 36 municipalities with Devanagari names and no vdc', async () => {
      const provinces = data<Row[]>(await rd.request('GET', `${PROVINCES}?includeInactive=true`)).filter((row) => row.code?.startsWith('NP-P'));
      expect(provinces.map((row) => row.name).sort()).toEqual(['Bagmati', 'Gandaki', 'Karnali', 'Koshi', 'Lumbini', 'Madhesh', 'Sudurpashchim']);
      const seeded = await rd.prisma.district.findMany({ where: { provinceId: { in: provinces.map((row) => row.id) } } });
      expect(seeded).toHaveLength(77);
      const municipalities = await rd.prisma.municipality.findMany({ where: { districtId: { in: seeded.map((row) => row.id) } } });
      expect(municipalities).toHaveLength(36);
      expect(
        municipalities
          .filter((row) => row.type === 'metropolitan')
          .map((row) => row.name)
          .sort(),
      ).toEqual(['Bharatpur', 'Biratnagar', 'Birgunj', 'Kathmandu', 'Lalitpur', 'Pokhara']);
      expect(municipalities.filter((row) => row.type === 'sub_metropolitan')).toHaveLength(11);
      expect(municipalities.some((row) => row.type === 'vdc')).toBe(false);
      for (const row of [...provinces, ...seeded, ...municipalities]) expect(row.nameNp).toMatch(DEVANAGARI);
      for (const row of municipalities) expect(row.wardCount).toEqual(expect.any(Number));
      const kathmandu = municipalities.find((row) => row.name === 'Kathmandu');
      expect(seeded.find((row) => row.id === kathmandu?.districtId)?.name).toBe('Kathmandu');
    });

    it('are idempotent: migrating again, as a restart or another replica does, changes nothing', async () => {
      const before = await rd.prisma.municipality.findMany({ orderBy: { id: 'asc' } });
      const provincesBefore = await rd.prisma.province.findMany({ orderBy: { id: 'asc' } });
      await Promise.all([rd.migrate(), rd.migrate()]);
      expect(await rd.prisma.municipality.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
      expect(await rd.prisma.province.findMany({ orderBy: { id: 'asc' } })).toEqual(provincesBefore);
    });
  });

  describe('lists (spec §4.7 rule 1)', () => {
    it('sort by name then id, show active rows unless includeInactive, and filter by parent', async () => {
      const p = await province();
      const b = await district(p.id, 'B district');
      const a = await district(p.id, 'A district');
      const retired = await district(p.id, 'C district');
      expect((await patch(DISTRICTS, retired.publicId, { isActive: false })).status).toBe(200);
      const active = await rd.request('GET', `${DISTRICTS}?provinceId=${p.id}`);
      expect(active.status).toBe(200);
      expect(active.body).toMatchObject({ errorCode: null });
      expect(active.body.count).toBeUndefined();
      expect(data<Row[]>(active).map((row) => row.id)).toEqual([a.id, b.id]);
      const all = data<Row[]>(await rd.request('GET', `${DISTRICTS}?provinceId=${p.id}&includeInactive=1`));
      expect(all.map((row) => row.id)).toEqual([a.id, b.id, retired.id]);
      expect(all[0]).toEqual({
        id: a.id,
        publicId: a.publicId,
        name: 'A district',
        nameNp: null,
        code: null,
        isActive: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        provinceId: p.id,
        provinceName: p.name,
      });
      const provinces = data<Row[]>(await rd.request('GET', PROVINCES));
      const names = provinces.map((row) => row.name);
      expect(names).toEqual([...names].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    });

    it('page municipalities: default 20, size up to 100, pagination=false up to 1000, filters by district', async () => {
      const all = await rd.request('GET', `${MUNICIPALITIES}?pagination=false`);
      expect(all.body).toMatchObject({ currentPage: 1, totalPage: 1, errorCode: null });
      const count = all.body.count as number;
      expect(count).toBeGreaterThanOrEqual(36);
      expect(data<Row[]>(all)).toHaveLength(Math.min(count, 1000));
      const first = await rd.request('GET', MUNICIPALITIES);
      expect(first.body).toMatchObject({ count, currentPage: 1, totalPage: Math.ceil(count / 20) });
      expect(data<Row[]>(first)).toEqual(data<Row[]>(all).slice(0, 20));
      const second = await rd.request('GET', `${MUNICIPALITIES}?page=2&size=5`);
      expect(data<Row[]>(second)).toEqual(data<Row[]>(all).slice(5, 10));
      expect((await rd.request('GET', `${MUNICIPALITIES}?size=100`)).status).toBe(200);

      const { d, m } = await chain();
      const other = await municipality(d.id, 'Aaa first');
      const byDistrict = await rd.request('GET', `${MUNICIPALITIES}?districtId=${d.id}`);
      expect(byDistrict.body).toMatchObject({ count: 2, currentPage: 1, totalPage: 1 });
      expect(data<Row[]>(byDistrict)).toEqual([
        {
          id: other.id,
          publicId: other.publicId,
          name: 'Aaa first',
          nameNp: null,
          code: null,
          isActive: true,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          districtId: d.id,
          districtName: d.name,
          type: 'municipality',
          wardCount: 9,
        },
        expect.objectContaining({ id: m.id }),
      ]);
    });

    it('caps pagination=false at 1000 rows, with the count of every match', async () => {
      const p = await province();
      const d = await district(p.id);
      await rd.prisma.municipality.createMany({
        data: Array.from({ length: 1001 }, (_, index) => ({
          publicId: `0190b6a4-b0b0-7000-8000-${String(index).padStart(12, '0')}`,
          districtId: d.id,
          name: `Bulk ${String(index).padStart(4, '0')}`,
          type: 'rural_municipality' as const,
        })),
      });
      const all = await rd.request('GET', `${MUNICIPALITIES}?districtId=${d.id}&pagination=0`);
      expect(all.body).toMatchObject({ count: 1001, currentPage: 1, totalPage: 1 });
      const rows = data<Row[]>(all);
      expect(rows).toHaveLength(1000);
      expect([rows[0]?.name, rows[999]?.name]).toEqual(['Bulk 0000', 'Bulk 0999']);
      const last = await rd.request('GET', `${MUNICIPALITIES}?districtId=${d.id}&size=100&page=11`);
      expect(data<Row[]>(last).map((row) => row.name)).toEqual(['Bulk 1000']);
      expect(last.body).toMatchObject({ count: 1001, currentPage: 11, totalPage: 11 });
    });

    it('refuse malformed or undeclared query parameters with 400', async () => {
      for (const path of [
        `${PROVINCES}?includeInactive=yes`,
        `${PROVINCES}?search=x`,
        `${DISTRICTS}?provinceId=abc`,
        `${DISTRICTS}?provinceId=1.5`,
        `${DISTRICTS}?page=1`,
        `${MUNICIPALITIES}?size=101`,
        `${MUNICIPALITIES}?size=0`,
        `${MUNICIPALITIES}?pagination=no`,
        `${MUNICIPALITIES}?districtId=-1`,
        `${MUNICIPALITIES}?order=asc`,
        `${MUNICIPALITIES}?sort=name`,
      ]) {
        expectError(await rd.request('GET', path), 400, 'VALIDATION_FAILED');
      }
    });
  });

  describe('create, update, delete', () => {
    it('create 201, update 200, delete 200 with data null, for each level', async () => {
      const created = await post(PROVINCES, { name: '  Spaced  ', nameNp: 'प्रदेश', code: 'X1' });
      expect(created.status).toBe(201);
      const p = data<Row>(created);
      expect(p).toMatchObject({ name: 'Spaced', nameNp: 'प्रदेश', code: 'X1', isActive: true });
      const updated = await patch(PROVINCES, p.publicId, { name: 'Spaced again', code: null });
      expect(updated.status).toBe(200);
      expect(data<Row>(updated)).toMatchObject({ id: p.id, name: 'Spaced again', code: null, nameNp: 'प्रदेश' });
      const d = await district(p.id);
      const m = await municipality(d.id);
      const movedM = await patch(MUNICIPALITIES, m.publicId, { type: 'vdc', wardCount: null });
      expect(data<Row>(movedM)).toMatchObject({ type: 'vdc', wardCount: null, districtName: d.name });
      for (const [path, row] of [
        [MUNICIPALITIES, m],
        [DISTRICTS, d],
        [PROVINCES, p],
      ] as const) {
        const deleted = await del(path, row.publicId);
        expect(deleted.status).toBe(200);
        expect(deleted.body).toEqual({ message: expect.any(String), data: null, errorCode: null });
      }
      expect(await rd.prisma.province.findUnique({ where: { id: p.id } })).toBeNull();
    });

    it('answers an unknown or malformed publicId with the 404 of its level', async () => {
      for (const [path, code] of [
        [PROVINCES, 'PROVINCE_NOT_FOUND'],
        [DISTRICTS, 'DISTRICT_NOT_FOUND'],
        [MUNICIPALITIES, 'MUNICIPALITY_NOT_FOUND'],
      ] as const) {
        for (const publicId of [UNKNOWN_UUID, 'not-a-uuid']) {
          expectError(await patch(path, publicId, { isActive: true }), 404, code);
          expectError(await del(path, publicId), 404, code);
        }
      }
    });

    it('answers a missing parent on create or move with the parent level 404', async () => {
      const { d, m } = await chain();
      expectError(await post(DISTRICTS, { provinceId: 999_999, name: 'Orphan' }), 404, 'PROVINCE_NOT_FOUND');
      expectError(await post(MUNICIPALITIES, { districtId: 999_999, name: 'Orphan', type: 'municipality' }), 404, 'DISTRICT_NOT_FOUND');
      const lone = await district((await province()).id);
      expectError(await patch(DISTRICTS, lone.publicId, { provinceId: 999_999 }), 404, 'PROVINCE_NOT_FOUND');
      expectError(await patch(MUNICIPALITIES, m.publicId, { districtId: 999_999 }), 404, 'DISTRICT_NOT_FOUND');
      expect((await rd.prisma.municipality.findUnique({ where: { id: m.id } }))?.districtId).toBe(d.id);
    });
  });

  describe('validation (spec §4.7 rule 7, §8)', () => {
    it('refuses invalid bodies with 400 VALIDATION_FAILED and writes nothing', async () => {
      const p = await province();
      const d = await district(p.id);
      const bad: Array<[string, unknown]> = [
        [PROVINCES, {}],
        [PROVINCES, { name: '   ' }],
        [PROVINCES, { name: 'x'.repeat(121) }],
        [PROVINCES, { name: 'Two\nlines' }],
        [PROVINCES, { name: 'Bidi \u202Eoverride' }],
        [PROVINCES, { name: 'Ok', nameNp: 'न'.repeat(121) }],
        [PROVINCES, { name: 'Ok', code: 'x'.repeat(21) }],
        [PROVINCES, { name: 'Ok', isActive: 'yes' }],
        [PROVINCES, { name: 'Ok', extra: 1 }],
        [PROVINCES, '{"name":"Ok","__proto__":{"x":1}}'],
        [DISTRICTS, { name: 'Ok' }],
        [DISTRICTS, { provinceId: '1', name: 'Ok' }],
        [DISTRICTS, { provinceId: 1.5, name: 'Ok' }],
        [DISTRICTS, { provinceId: p.id, name: 'Ok', code: 'X' }],
        [MUNICIPALITIES, { districtId: d.id, name: 'Ok' }],
        [MUNICIPALITIES, { districtId: d.id, name: 'Ok', type: 'city' }],
        [MUNICIPALITIES, { districtId: d.id, name: 'Ok', type: 'municipality', wardCount: 0 }],
        [MUNICIPALITIES, { districtId: d.id, name: 'Ok', type: 'municipality', wardCount: 36 }],
        [MUNICIPALITIES, { districtId: d.id, name: 'Ok', type: 'municipality', wardCount: 2.5 }],
      ];
      for (const [path, body] of bad) {
        const answer = await post(path, body);
        expectError(answer, 400, 'VALIDATION_FAILED');
        expect(answer.body.errors?.length).toBeGreaterThan(0);
      }
      expect(await rd.prisma.province.count({ where: { name: 'Ok' } })).toBe(0);
      expect(await rd.prisma.district.count({ where: { name: 'Ok' } })).toBe(0);
      expect(await rd.prisma.municipality.count({ where: { name: 'Ok' } })).toBe(0);
      const m = await municipality(d.id);
      expectError(await patch(MUNICIPALITIES, m.publicId, { wardCount: 36 }), 400, 'VALIDATION_FAILED');
      expectError(await patch(MUNICIPALITIES, m.publicId, { name: '' }), 400, 'VALIDATION_FAILED');
      expectError(await patch(PROVINCES, p.publicId, { provinceId: 1 }), 400, 'VALIDATION_FAILED');
      const vdc = await post(MUNICIPALITIES, { districtId: d.id, name: 'Old VDC', type: 'vdc', wardCount: 35 });
      expect(vdc.status).toBe(201);
      expect(data<Row>(vdc)).toMatchObject({ type: 'vdc', wardCount: 35 });
    });
  });

  // The rules themselves (names in scope, references, claims, users' addresses) are test/medium/geography.medium.test.ts.
  describe("the rules' refusals on the wire (spec §4.7 rules 2, 5-6)", () => {
    it('answers each as 409 with its errorCode and data null, and changes nothing', async () => {
      const { p, d } = await chain();
      const target = await province();
      expectError(await post(PROVINCES, { name: p.name.toUpperCase() }), 409, 'GEOGRAPHY_NAME_TAKEN');
      expectError(await patch(PROVINCES, p.publicId, { name: 'Renamed' }), 409, 'GEOGRAPHY_RENAME_REFERENCED');
      expectError(await patch(DISTRICTS, d.publicId, { provinceId: target.id }), 409, 'GEOGRAPHY_RENAME_REFERENCED');
      expectError(await del(PROVINCES, p.publicId), 409, 'GEOGRAPHY_IN_USE');
      expectError(await del(DISTRICTS, d.publicId), 409, 'GEOGRAPHY_IN_USE');
      expect(await rd.prisma.province.findUnique({ where: { id: p.id } })).toMatchObject({ name: p.name });
      expect(await rd.prisma.district.findUnique({ where: { id: d.id } })).toMatchObject({ provinceId: p.id, name: d.name });
    });
  });
});
