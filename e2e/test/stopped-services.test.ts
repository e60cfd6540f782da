import { randomBytes } from 'node:crypto';
import { type RunningSystem, startSystem } from '@school/system-harness';
import { httpClient, scaled } from '@school/testing';

/**
 * A service stopped under the gateway: its routes answer 503 SERVICE_UNAVAILABLE at once; with
 * reference-data stopped an address write answers 503 and writes nothing, never a guess; with
 * identity stopped reference-data still decides deletes alone (issues 11 and 22). The system is the
 * suite's own: it stops its processes, and starts again the one a later test needs.
 */

interface Row {
  id: number;
  publicId: string;
}

const email = () => `stopped.${randomBytes(4).toString('hex')}@example.com`;
const label = (what: string) => `${what} ${randomBytes(3).toString('hex')}`;

async function adminToken(system: RunningSystem): Promise<string> {
  const login = await fetch(`${system.gatewayUrl}/api/auth/login/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: 'Admin123!' }),
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
}

let system: RunningSystem;

beforeAll(async () => {
  system = await startSystem();
}, 90_000);

afterAll(async () => {
  await system?.shutdown();
});

describe('with media, then identity, stopped', () => {
  let admin: string;

  beforeAll(async () => {
    admin = await adminToken(system);
  });

  const request = httpClient(() => system.gatewayUrl);
  const call = (method: string, path: string, body?: unknown) => request(method, path, body, admin);

  it('reports a stopped service and answers its routes with 503 SERVICE_UNAVAILABLE', async () => {
    await system.stop('media');
    const ready = await fetch(`${system.gatewayUrl}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ errorCode: 'SERVICE_UNAVAILABLE', data: { checks: { media: 'down', identity: 'up' } } });

    const token = await adminToken(system);
    const started = Date.now();
    const upload = await fetch(`${system.gatewayUrl}/api/upload/signed-url/public/avatar/a.png`, { headers: { authorization: `Bearer ${token}` } });
    expect(upload.status).toBe(503);
    expect(await upload.json()).toEqual({ message: expect.any(String), data: null, errorCode: 'SERVICE_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(scaled(3_000));
  });

  /** A fresh province > district > municipality chain nothing else references. */
  async function chain(): Promise<{ province: Row; district: Row; municipality: Row }> {
    const province = (await call('POST', '/api/lookups/provinces', { name: label('Province') })).body.data as Row;
    const district = (await call('POST', '/api/lookups/districts', { provinceId: province.id, name: label('District') })).body.data as Row;
    const municipality = (await call('POST', '/api/lookups/municipalities', { districtId: district.id, name: label('Town'), type: 'municipality' })).body.data as Row;
    return { province, district, municipality };
  }

  it('with identity stopped, addresses it committed still refuse a delete, and an unreferenced row is deleted: reference-data asks no one', async () => {
    const used = await chain();
    const free = await chain();
    const address = { provinceId: used.province.id, districtId: used.district.id, municipalityId: used.municipality.id, ward: 4 };
    expect((await call('POST', '/api/users', { email: email(), name: 'Committed', role: 'customer', address })).status).toBe(201);
    await system.stop('identity');
    expect(await call('DELETE', `/api/lookups/municipalities/${used.municipality.publicId}`)).toMatchObject({ status: 409, body: { errorCode: 'GEOGRAPHY_IN_USE' } });
    expect((await call('DELETE', `/api/lookups/municipalities/${free.municipality.publicId}`)).status).toBe(200);
    const left = await call('GET', `/api/lookups/municipalities?districtId=${free.district.id}&includeInactive=true`);
    expect(left.body.data).toEqual([]);
  });
});

describe('with reference-data stopped', () => {
  it('creating a user with an address answers 503 and creates nothing', async () => {
    // The suite above stopped identity, which this one needs.
    await system.restart('identity');
    const headers = { authorization: `Bearer ${await adminToken(system)}`, 'content-type': 'application/json' };
    await system.stop('reference-data');
    const address = email();
    const created = await fetch(`${system.gatewayUrl}/api/users`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email: address, name: 'No Geography', role: 'customer', address: { provinceId: 1, districtId: 1, municipalityId: 1 } }),
    });
    expect(created.status).toBe(503);
    expect(((await created.json()) as { errorCode: string }).errorCode).toBe('SERVICE_UNAVAILABLE');
    const list = await fetch(`${system.gatewayUrl}/api/users?search=${encodeURIComponent(address)}`, { headers });
    expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
    // Without an address identity does not need reference-data.
    const plain = await fetch(`${system.gatewayUrl}/api/users`, { method: 'POST', headers, body: JSON.stringify({ email: email(), name: 'Plain', role: 'customer' }) });
    expect(plain.status).toBe(201);
  }, 90_000);
});
