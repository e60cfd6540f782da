import { randomBytes } from 'node:crypto';
import { clientAddress } from './support/people.js';
import { sharedSystem } from './support/shared-system.js';
import type { SystemView } from '@school/system-harness';
import { httpClient } from '@school/testing';

/**
 * Issues 11 and 22 across services, through the gateway: identity asks reference-data
 * (GEOGRAPHY_CHECK, which claims the rows) and tells it the committed address through its outbox
 * (identity.user_address_changed); reference-data decides deletes and renames alone.
 * stopped-services.test.ts stops either of them.
 */

let system: SystemView;
let admin: string;

interface Row {
  id: number;
  publicId: string;
  name: string;
}

const request = httpClient(() => system.gatewayUrl);
const call = (method: string, path: string, body?: unknown) => request(method, path, body, admin);

const label = (what: string) => `${what} ${randomBytes(3).toString('hex')}`;
const email = () => `address.${randomBytes(4).toString('hex')}@example.com`;

/** A fresh province > district > municipality chain nothing else references. */
async function chain(): Promise<{ province: Row; district: Row; municipality: Row }> {
  const province = (await call('POST', '/api/lookups/provinces', { name: label('Province') })).body.data as Row;
  const district = (await call('POST', '/api/lookups/districts', { provinceId: province.id, name: label('District') })).body.data as Row;
  const municipality = (await call('POST', '/api/lookups/municipalities', { districtId: district.id, name: label('Town'), type: 'municipality' })).body.data as Row;
  return { province, district, municipality };
}

const addressOf = ({ province, district, municipality }: Awaited<ReturnType<typeof chain>>) => ({
  provinceId: province.id,
  districtId: district.id,
  municipalityId: municipality.id,
  ward: 4,
});

beforeAll(async () => {
  system = await sharedSystem();
  const login = await fetch(`${system.gatewayUrl}/api/auth/login/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': clientAddress() },
    body: JSON.stringify({ email: 'admin@example.com', password: 'Admin123!' }),
  });
  admin = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
}, 90_000);

describe('addresses between identity and reference-data', () => {
  it('stores a user address reference-data confirms, and refuses one that does not nest', async () => {
    const place = await chain();
    const other = await chain();
    const created = await call('POST', '/api/users', { email: email(), name: 'With Address', role: 'customer', address: addressOf(place) });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ address: { provinceId: place.province.id, districtId: place.district.id, municipalityId: place.municipality.id, ward: 4 } });

    const mixed = await call('POST', '/api/users', { email: email(), name: 'Mixed', role: 'customer', address: { ...addressOf(place), districtId: other.district.id } });
    expect(mixed.status).toBe(400);
    expect(mixed.body.errorCode).toBe('VALIDATION_FAILED');
    expect(mixed.body.errors?.map((error) => error.field)).toEqual(['address.districtId']);
  });

  it('an unreferenced row can be renamed and deleted; one named by an address cannot, even when its user is deleted', async () => {
    const free = await chain();
    expect((await call('PATCH', `/api/lookups/municipalities/${free.municipality.publicId}`, { name: label('Renamed') })).status).toBe(200);
    expect((await call('DELETE', `/api/lookups/municipalities/${free.municipality.publicId}`)).status).toBe(200);

    const used = await chain();
    const user = (await call('POST', '/api/users', { email: email(), name: 'Soon Deleted', role: 'customer', address: addressOf(used) })).body.data as { publicId: string };
    expect((await call('DELETE', `/api/users/${user.publicId}`)).status).toBe(200);

    const rename = await call('PATCH', `/api/lookups/municipalities/${used.municipality.publicId}`, { name: label('Renamed') });
    expect(rename).toMatchObject({ status: 409, body: { errorCode: 'GEOGRAPHY_RENAME_REFERENCED' } });
    const remove = await call('DELETE', `/api/lookups/municipalities/${used.municipality.publicId}`);
    expect(remove).toMatchObject({ status: 409, body: { errorCode: 'GEOGRAPHY_IN_USE' } });
    // Retirement is never refused for being referenced (spec §3.3).
    expect((await call('PATCH', `/api/lookups/municipalities/${used.municipality.publicId}`, { isActive: false })).status).toBe(200);
  });

  it('of a delete and an address naming the same row at once, one is refused: no address names a missing row (contract §9)', async () => {
    for (let round = 0; round < 12; round += 1) {
      const target = await chain();
      const [created, removed] = await Promise.all([
        call('POST', '/api/users', { email: email(), name: 'Racing Address', role: 'customer', address: addressOf(target) }),
        new Promise((resolve) => setTimeout(resolve, round % 4)).then(() => call('DELETE', `/api/lookups/municipalities/${target.municipality.publicId}`)),
      ]);
      expect([201, 400, 503]).toContain(created.status);
      expect([200, 409, 503]).toContain(removed.status);
      if (created.status === 400) expect(created.body.errors).toEqual([expect.objectContaining({ field: 'address.municipalityId' })]);
      if (removed.status === 409) expect(removed.body.errorCode).toBe('GEOGRAPHY_IN_USE');
      // Never both: an address written over a row that is gone.
      expect(created.status === 201 && removed.status === 200).toBe(false);
      const rows = await call('GET', `/api/lookups/municipalities?districtId=${target.district.id}&includeInactive=true`);
      const exists = (rows.body.data as Row[]).some((row) => row.publicId === target.municipality.publicId);
      if (created.status === 201) expect(exists).toBe(true);
    }
  });
});
