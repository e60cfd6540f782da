import { Controller, Inject, Res } from '@nestjs/common';
import { KEY_ROUTES } from '@school/contracts';
import { Route } from '@school/service';
import type { JSONWebKeySet } from 'jose';
import { KEYS_OPTIONS, type KeysModuleOptions } from './keys.options.js';
import { SigningKeyService } from './signing-key.service.js';

/** Contract §4: the route of KEY_ROUTES. */
@Controller()
export class JwksController {
  constructor(
    private readonly keys: SigningKeyService,
    @Inject(KEYS_OPTIONS) private readonly options: KeysModuleOptions,
  ) {}

  /**
   * A plain JWK Set (RFC 7517), not the response envelope: verifiers read it as is. Cacheable as long
   * as verifiers keep it (JWKS_CACHE_SECONDS), the time a rotated key waits before it signs.
   */
  @Route(KEY_ROUTES.jwks)
  jwks(@Res({ passthrough: true }) reply: { header(name: string, value: string): unknown }): JSONWebKeySet {
    reply.header('Cache-Control', `public, max-age=${this.options.jwksMaxAgeSeconds}`);
    return this.keys.jwks();
  }
}
