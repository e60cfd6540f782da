import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type JSONWebKeySet, SignJWT } from 'jose';
import type { AccessTokenClaims } from '@school/auth';
import { KEYS_OPTIONS, type KeysModuleOptions } from './keys.options.js';
import { activate, type ActiveSigningKey, describePrivateKey, generateEd25519Pem } from './signing-key.js';
import { SigningKeyRepository } from './signing-key.repository.js';

export interface SignedAccessToken {
  token: string;
  expiresAt: Date;
}

/**
 * Holds the access-token signing key: JWT_PRIVATE_KEY when configured, otherwise the Ed25519 key
 * kept in the identity schema (created on first start). Loaded before the app listens.
 */
@Injectable()
export class SigningKeyService implements OnModuleInit {
  private key: ActiveSigningKey | undefined;

  constructor(
    @Inject(KEYS_OPTIONS) private readonly options: KeysModuleOptions,
    private readonly repository: SigningKeyRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    const pem =
      this.options.privateKeyPem ??
      (await this.repository.findOrCreate(() => describePrivateKey(generateEd25519Pem())));
    this.key = await activate(await describePrivateKey(pem));
  }

  get kid(): string {
    return this.active().kid;
  }

  async sign(claims: AccessTokenClaims, ttlSeconds: number): Promise<SignedAccessToken> {
    const key = this.active();
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const token = await new SignJWT({ sid: claims.sid, role: claims.role })
      .setProtectedHeader({ alg: key.algorithm, kid: key.kid, typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(key.privateKey);
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  /** Public keys only: the JWK holds no private member. */
  jwks(): JSONWebKeySet {
    return { keys: [this.active().publicJwk] };
  }

  private active(): ActiveSigningKey {
    if (!this.key) throw new Error('SigningKeyService used before the module was initialised');
    return this.key;
  }
}
