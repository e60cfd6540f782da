import { randomBytes } from 'node:crypto';
import type { GeographyRowDto } from '@school/contracts';
import type { SystemView } from '@school/system-harness';
import { httpClient, type HttpAnswer } from '@school/testing';
import { clientAddress } from './support/people.js';
import { SEEDED_PROVINCES } from './support/seed.js';
import { sharedSystem } from './support/shared-system.js';

/**
 * Issue 11, geography and the school profile through the gateway: the seeds, lists, create and
 * update, the name rules, and the references of child rows and the school profile. Users'
 * addresses as references: address-references.test.ts. On the shared system other suites add rows
 * of their own, so the lists are read for the seeded rows (the seed's exact counts: reference-data's
 * geography.test.ts); no other suite writes the school profile.
 */

let system: SystemView;
let admin: string;

type Answer = HttpAnswer;

type Row = GeographyRowDto;

const request = httpClient(() => system.gatewayUrl, { headers: () => ({ 'x-forwarded-for': clientAddress() }) });
const call = (method: string, path: string, body?: unknown, accessToken: string | null = admin) => request(method, path, body, accessToken);

const data = <T>(answer: Answer) => answer.body.data as T;
const label = (what: string) => `${what} ${randomBytes(3).toString('hex')}`;
const refusal = (errorCode: string) => ({ message: expect.any(String), data: null, errorCode });

beforeAll(async () => {
  system = await sharedSystem();
  const login = await call('POST', '/api/auth/login/email', { email: 'admin@example.com', password: 'Admin123!' }, null);
  expect(login.status).toBe(200);
  admin = (login.body.data as { accessToken: string }).accessToken;
});

async function chain() {
  const p = data<Row>(await call('POST', '/api/lookups/provinces', { name: label('E2E Province') }));
  const d = data<Row>(await call('POST', '/api/lookups/districts', { provinceId: p.id, name: label('E2E District') }));
  const created = await call('POST', '/api/lookups/municipalities', { districtId: d.id, name: label('E2E Town'), type: 'rural_municipality', wardCount: 7 });
  expect(created.status).toBe(201);
  return { p, d, m: data<Row>(created) };
}

describe('geography through the gateway (spec §4.7)', () => {
  it('needs a token', async () => {
    expect(await call('GET', '/api/lookups/provinces', undefined, null)).toEqual({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });
    expect(await call('GET', '/api/school-profile', undefined, null)).toEqual({ status: 401, body: refusal('AUTH_UNAUTHENTICATED') });
  });

  it('serves the seeded provinces, districts and municipalities of Nepal, sorted by name', async () => {
    const provinces = data<Row[]>(await call('GET', '/api/lookups/provinces'));
    expect(provinces.map((row) => row.name).filter((name) => SEEDED_PROVINCES.includes(name))).toEqual(SEEDED_PROVINCES);
    expect(provinces.find((row) => row.name === 'Koshi')).toMatchObject({ nameNp: 'कोशी', code: 'NP-P1', isActive: true });
    const districts = data<Row[]>(await call('GET', '/api/lookups/districts'));
    expect(districts.length).toBeGreaterThanOrEqual(77);
    const bagmati = provinces.find((row) => row.name === 'Bagmati') as Row;
    const inBagmati = data<Row[]>(await call('GET', `/api/lookups/districts?provinceId=${bagmati.id}`));
    expect(inBagmati).toHaveLength(13);
    const kathmandu = inBagmati.find((row) => row.name === 'Kathmandu') as Row;
    expect(kathmandu).toMatchObject({ nameNp: 'काठमाडौं', code: null, provinceId: bagmati.id, provinceName: 'Bagmati' });

    const all = await call('GET', '/api/lookups/municipalities?pagination=false');
    // Every row in one page (other suites may add some between the list and its count).
    expect(all.body).toMatchObject({ count: expect.any(Number), currentPage: 1, totalPage: 1, errorCode: null });
    expect((all.body as { count: number }).count).toBeGreaterThanOrEqual(36);
    expect(data<Row[]>(all).length).toBeGreaterThanOrEqual(36);
    const page = await call('GET', '/api/lookups/municipalities');
    expect(page.body).toMatchObject({ count: expect.any(Number), currentPage: 1, totalPage: Math.ceil((page.body as { count: number }).count / 20) });
    expect(data<Row[]>(page)).toHaveLength(20);
    const inKathmandu = data<Row[]>(await call('GET', `/api/lookups/municipalities?districtId=${kathmandu.id}`));
    expect(inKathmandu.map((row) => [row.name, row.type, row.wardCount])).toEqual([
      ['Budhanilkantha', 'municipality', 13],
      ['Kathmandu', 'metropolitan', 32],
      ['Kirtipur', 'municipality', 10],
    ]);
    expect((await call('GET', '/api/lookups/municipalities?size=101')).body).toMatchObject({ errorCode: 'VALIDATION_FAILED' });
  });

  it('creates and updates rows, refuses twin names in scope, and lists retired rows only on request', async () => {
    const { p, d, m } = await chain();
    expect(await call('POST', '/api/lookups/provinces', { name: p.name.toUpperCase() })).toEqual({ status: 409, body: refusal('GEOGRAPHY_NAME_TAKEN') });
    expect(await call('POST', '/api/lookups/municipalities', { districtId: d.id, name: m.name.toLowerCase(), type: 'vdc' })).toEqual({
      status: 409,
      body: refusal('GEOGRAPHY_NAME_TAKEN'),
    });
    expect(await call('POST', '/api/lookups/districts', { provinceId: 999_999, name: 'Nowhere' })).toEqual({ status: 404, body: refusal('PROVINCE_NOT_FOUND') });
    const retired = await call('PATCH', `/api/lookups/municipalities/${m.publicId}`, { isActive: false, wardCount: 9, nameNp: 'गाउँपालिका' });
    expect(retired.status).toBe(200);
    expect(data<Row>(retired)).toMatchObject({ isActive: false, wardCount: 9, nameNp: 'गाउँपालिका', name: m.name });
    expect(data<Row[]>(await call('GET', `/api/lookups/municipalities?districtId=${d.id}`))).toEqual([]);
    expect(data<Row[]>(await call('GET', `/api/lookups/municipalities?districtId=${d.id}&includeInactive=true`)).map((row) => row.id)).toEqual([m.id]);
    expect(await call('PATCH', '/api/lookups/provinces/not-a-uuid', { isActive: false })).toEqual({ status: 404, body: refusal('PROVINCE_NOT_FOUND') });
  });

  it('refuses renaming, moving or deleting a row that has children', async () => {
    const { p, d } = await chain();
    const other = await chain();
    expect(await call('PATCH', `/api/lookups/provinces/${p.publicId}`, { name: label('Renamed') })).toEqual({ status: 409, body: refusal('GEOGRAPHY_RENAME_REFERENCED') });
    expect(await call('PATCH', `/api/lookups/districts/${d.publicId}`, { provinceId: other.p.id })).toEqual({ status: 409, body: refusal('GEOGRAPHY_RENAME_REFERENCED') });
    expect(await call('DELETE', `/api/lookups/districts/${d.publicId}`)).toEqual({ status: 409, body: refusal('GEOGRAPHY_IN_USE') });
    expect(await call('DELETE', `/api/lookups/provinces/${p.publicId}`)).toEqual({ status: 409, body: refusal('GEOGRAPHY_IN_USE') });
    expect((await call('PATCH', `/api/lookups/provinces/${p.publicId}`, { code: 'E2E', isActive: false })).status).toBe(200);
  });
});

describe('school profile through the gateway (contract §6)', () => {
  it('is null before the first PUT, validates nesting, and its geography counts as a reference', async () => {
    expect(await call('GET', '/api/school-profile')).toEqual({ status: 200, body: { message: expect.any(String), data: null, errorCode: null } });
    const a = await chain();
    const b = await chain();
    const ids = { provinceId: a.p.id, districtId: a.d.id, municipalityId: a.m.id };
    expect((await call('PUT', '/api/school-profile', { name: 'E2E School', ...ids, municipalityId: b.m.id })).body).toMatchObject({ errorCode: 'VALIDATION_FAILED' });
    const saved = await call('PUT', '/api/school-profile', {
      name: 'E2E School',
      ...ids,
      ward: 3,
      street: 'Ring Road\nGate 2',
      phone: '+9779800000000',
      email: 'office@school.example',
    });
    expect(saved.status).toBe(200);
    expect(data(await call('GET', '/api/school-profile'))).toEqual(data(saved));
    expect(data(saved)).toMatchObject({ name: 'E2E School', ...ids, ward: 3, street: 'Ring Road\nGate 2' });
    expect(await call('PATCH', `/api/lookups/municipalities/${a.m.publicId}`, { name: label('Renamed') })).toEqual({ status: 409, body: refusal('GEOGRAPHY_RENAME_REFERENCED') });
    expect(await call('DELETE', `/api/lookups/municipalities/${a.m.publicId}`)).toEqual({ status: 409, body: refusal('GEOGRAPHY_IN_USE') });
    expect((await call('PATCH', `/api/lookups/municipalities/${a.m.publicId}`, { isActive: false })).status).toBe(200);
  });
});
