import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_ROUTES } from '@school/contracts';
import { manifestMismatches } from '@school/service/testing';
import { type IdentityUnderTest, startIdentity } from './kit/index.js';

describe('the route manifests of identity', () => {
  let identity: IdentityUnderTest;

  beforeAll(async () => {
    identity = await startIdentity();
  });

  afterAll(async () => {
    await identity?.close();
  });

  it('serves each route of its manifests with one handler, declared and guarded as its entry says, and no handler outside them', () => {
    expect(manifestMismatches(identity.app, SERVICE_ROUTES.identity)).toEqual([]);
  });
});
