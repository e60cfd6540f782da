import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_ROUTES } from '@school/contracts';
import { guardFor, manifestKeys, type ServedRoute, servedRoutes } from '@school/service/testing';
import { type MediaUnderTest, startMedia } from './support/media-app.js';

describe('the route manifests of media', () => {
  let media: MediaUnderTest;
  let served: ServedRoute[];

  beforeAll(async () => {
    media = await startMedia();
    served = servedRoutes(media.app);
  }, 60_000);

  afterAll(async () => {
    await media?.close();
  });

  it('has every route served by exactly one handler, at its method and path, and no handler outside them', () => {
    expect(served.map((route) => route.key).sort()).toEqual(manifestKeys(SERVICE_ROUTES.media).sort());
    expect(served.filter((route) => route.key !== `${route.spec?.method} ${route.spec?.path}`)).toEqual([]);
  });

  it('guards each handler exactly as its manifest entry says', () => {
    for (const route of served) expect({ handler: route.handler, guard: route.guard }).toEqual({ handler: route.handler, guard: route.spec && guardFor(route.spec) });
  });
});
