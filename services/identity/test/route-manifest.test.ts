import { describe, expect, it } from '@jest/globals';
import { SERVICE_ROUTES } from '@school/contracts';
import { manifestMismatches } from '@school/service/testing';
import { identitySuite } from './kit/index.js';

describe('the route manifests of identity', () => {
  const identity = identitySuite();

  it('serves each route of its manifests with one handler, declared and guarded as its entry says, and no handler outside them', () => {
    expect(manifestMismatches(identity.app, SERVICE_ROUTES.identity)).toEqual([]);
  });
});
