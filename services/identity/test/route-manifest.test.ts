import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_ROUTES } from '@school/contracts';
import { guardFor, manifestKeys, type ServedRoute, servedRoutes } from '@school/service/testing';
import { type IdentityUnderTest, startIdentity } from './kit/index.js';

describe('the route manifests of identity', () => {
  let identity: IdentityUnderTest;
  let served: ServedRoute[];

  beforeAll(async () => {
    identity = await startIdentity();
    served = servedRoutes(identity.app);
  });

  afterAll(async () => {
    await identity?.close();
  });

  it('has every route served by exactly one handler, at its method and path, and no handler outside them', () => {
    expect(served.map((route) => route.key).sort()).toEqual(manifestKeys(SERVICE_ROUTES.identity).sort());
    expect(served.filter((route) => route.key !== `${route.spec?.method} ${route.spec?.path}`)).toEqual([]);
  });

  it('guards each handler exactly as its manifest entry says', () => {
    for (const route of served) expect({ handler: route.handler, guard: route.guard }).toEqual({ handler: route.handler, guard: route.spec && guardFor(route.spec) });
  });
});
