import { Controller, Get, Header } from '@nestjs/common';
import type { JSONWebKeySet } from 'jose';
import { SigningKeyService } from './signing-key.service.js';

@Controller('.well-known')
export class JwksController {
  constructor(private readonly keys: SigningKeyService) {}

  /** A plain JWK Set (RFC 7517), not the response envelope: verifiers read it as is. */
  @Get('jwks.json')
  @Header('Cache-Control', 'public, max-age=300')
  jwks(): JSONWebKeySet {
    return this.keys.jwks();
  }
}
