import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_ROUTES } from '@school/contracts';
import { guardFor, manifestKeys, type ServedRoute, servedRoutes } from '@school/service/testing';
import { type ReferenceDataInstance, type ReferenceDataSuite, referenceDataSuite } from './support/reference-data-app.js';

describe('the route manifests of reference-data', () => {
  let suite: ReferenceDataSuite;
  let instance: ReferenceDataInstance;
  let served: ServedRoute[];

  beforeAll(async () => {
    suite = await referenceDataSuite('rd_manifest');
    instance = await suite.start();
    served = servedRoutes(instance.app);
  }, 60_000);

  afterAll(async () => {
    await instance?.close();
    await suite?.close();
  });

  it('has every route served by exactly one handler, at its method and path, and no handler outside them', () => {
    expect(served.map((route) => route.key).sort()).toEqual(manifestKeys(SERVICE_ROUTES['reference-data']).sort());
    expect(served.filter((route) => route.key !== `${route.spec?.method} ${route.spec?.path}`)).toEqual([]);
  });

  it('guards each handler exactly as its manifest entry says', () => {
    for (const route of served) expect({ handler: route.handler, guard: route.guard }).toEqual({ handler: route.handler, guard: route.spec && guardFor(route.spec) });
  });
});
