import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { createPrivateKey } from 'node:crypto';
import type { JSONWebKeySet, JWK } from 'jose';
import { type AccessTokenClaims, SURFACE_CLAIM } from '@school/auth';
import { UnitOfWork } from '@school/service';
import { KEYS_OPTIONS, type KeysModuleOptions } from './keys.options.js';
import { CompactJwsSigner } from './compact-jws.js';
import { describePrivateKey, generateEd25519Pem } from './signing-key.js';
import { SigningKeyRepository } from './signing-key.repository.js';

interface ActiveSigningKey {
  kid: string;
  publicJwk: JWK;
  signer: CompactJwsSigner;
}

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
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async onModuleInit(): Promise<void> {
    const pem = this.options.privateKeyPem ?? (await this.storedKey());
    const { kid, algorithm, publicJwk } = await describePrivateKey(pem);
    this.key = { kid, publicJwk, signer: new CompactJwsSigner(createPrivateKey(pem), algorithm, kid) };
  }

  /** The stored key, created first when there is none; replicas starting together store exactly one. */
  private storedKey(): Promise<string> {
    return this.unitOfWork.run(async (tx) => {
      await this.repository.lockKeys(tx);
      const existing = await this.repository.findFirstPem(tx);
      if (existing !== null) return existing;
      const key = await describePrivateKey(generateEd25519Pem());
      await this.repository.create(tx, key);
      return key.privateKeyPem;
    });
  }

  get kid(): string {
    return this.active().kid;
  }

  sign(claims: AccessTokenClaims, ttlSeconds: number): SignedAccessToken {
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const token = this.active().signer.sign({
      sub: claims.sub,
      sid: claims.sid,
      role: claims.role,
      [SURFACE_CLAIM]: claims.srf,
      iss: this.options.issuer,
      aud: this.options.audience,
      iat: issuedAt,
      exp: expiresAt,
    });
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
