import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_ROUTES } from '@school/contracts';
import { manifestMismatches } from '@school/service/testing';
import { type MediaUnderTest, startMedia } from './support/media-app.js';

describe('the route manifests of media', () => {
  let media: MediaUnderTest;

  beforeAll(async () => {
    media = await startMedia();
  }, 60_000);

  afterAll(async () => {
    await media?.close();
  });

  it('serves each route of its manifests with one handler, declared and guarded as its entry says, and no handler outside them', () => {
    expect(manifestMismatches(media.app, SERVICE_ROUTES.media)).toEqual([]);
  });
});
