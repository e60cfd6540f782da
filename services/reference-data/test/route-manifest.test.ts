import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_ROUTES } from '@school/contracts';
import { manifestMismatches } from '@school/service/testing';
import { type ReferenceDataInstance, type ReferenceDataSuite, referenceDataSuite } from './support/reference-data-app.js';

describe('the route manifests of reference-data', () => {
  let suite: ReferenceDataSuite;
  let instance: ReferenceDataInstance;

  beforeAll(async () => {
    suite = await referenceDataSuite('rd_manifest');
    instance = await suite.start();
  }, 60_000);

  afterAll(async () => {
    await instance?.close();
    await suite?.close();
  });

  it('serves each route of its manifests with one handler, declared and guarded as its entry says, and no handler outside them', () => {
    expect(manifestMismatches(instance.app, SERVICE_ROUTES['reference-data'])).toEqual([]);
  });
});
