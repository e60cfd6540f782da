import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { namesIn, referenceDataSuite, type ReferenceDataInstance, type ReferenceDataSuite } from './support/reference-data-app.js';

const PROVINCES = '/api/lookups/provinces';
const DISTRICTS = '/api/lookups/districts';

/** Province and district lists come from the shared list cache; every write clears it for every replica. */
describe('geography list cache (Redis, shared by replicas)', () => {
  let suite: ReferenceDataSuite;
  let one: ReferenceDataInstance;
  let two: ReferenceDataInstance;
  let admin: string;

  beforeAll(async () => {
    suite = await referenceDataSuite('rd_geography_cache');
    one = await suite.start();
    two = await suite.start();
    admin = await suite.token('admin');
  });
  afterAll(() => suite?.close());

  it('serves the province list from the cache: a row written behind the service is not seen', async () => {
    const before = namesIn(await one.request('GET', PROVINCES, undefined, admin));
    await suite.prisma.province.create({ data: { publicId: crypto.randomUUID(), name: 'Behind the back' } });
    expect(namesIn(await one.request('GET', PROVINCES, undefined, admin))).toEqual(before);
    expect(namesIn(await two.request('GET', PROVINCES, undefined, admin))).toEqual(before);
  });

  it('a write on one replica is in the very next list on the other, for provinces and districts', async () => {
    await two.request('GET', PROVINCES, undefined, admin);
    const created = await one.request('POST', PROVINCES, { name: 'Written on one' }, admin);
    expect(created.status).toBe(201);
    expect(namesIn(await two.request('GET', PROVINCES, undefined, admin))).toContain('Written on one');
    const province = created.body.data as { id: number; publicId: string };

    const districts = `${DISTRICTS}?provinceId=${province.id}`;
    expect(namesIn(await one.request('GET', districts, undefined, admin))).toEqual([]);
    expect((await two.request('POST', DISTRICTS, { name: 'District on two', provinceId: province.id }, admin)).status).toBe(201);
    expect(namesIn(await one.request('GET', districts, undefined, admin))).toEqual(['District on two']);

    expect((await two.request('PATCH', `${PROVINCES}/${province.publicId}`, { isActive: false }, admin)).status).toBe(200);
    expect(namesIn(await one.request('GET', PROVINCES, undefined, admin))).not.toContain('Written on one');
  });
});
