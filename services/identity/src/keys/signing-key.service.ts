import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { createPrivateKey } from 'node:crypto';
import type { JSONWebKeySet, JWK } from 'jose';
import { type AccessTokenClaims, SURFACE_CLAIM } from '@school/auth';
import { UnitOfWork } from '@school/service';
import { KEYS_OPTIONS, type KeysModuleOptions } from './keys.options.js';
import { CompactJwsSigner } from './compact-jws.js';
import { keyRing } from './key-ring.js';
import { describePrivateKey, describePublicKey, generateEd25519Pem } from './signing-key.js';
import { SigningKeyRepository, type StoredSigningKey } from './signing-key.repository.js';

/** Start-up waits for its key as long as a slow machine needs: a request-sized timeout would end identity. */
const STARTUP_TRANSACTION = { timeoutMs: 60_000 } as const;

interface ActiveKeys {
  kid: string;
  signer: CompactJwsSigner;
  /** Every key that verifies, the signing one first. */
  published: JWK[];
}

interface DescribedKey {
  publicJwk: JWK;
  signer: CompactJwsSigner;
}

export interface SignedAccessToken {
  token: string;
  expiresAt: Date;
}

/**
 * Holds the access-token keys: JWT_PRIVATE_KEY (plus JWT_PUBLIC_KEYS, published beside it) when
 * configured, otherwise the keys kept in the identity schema (the first one created on first start),
 * re-read every `refreshMs` so a rotation (`npm run keys:rotate`) reaches every replica. Loaded before
 * the app listens.
 */
@Injectable()
export class SigningKeyService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SigningKeyService.name);
  private keys: ActiveKeys | undefined;
  /** By private key PEM: each key is parsed once, not at every refresh. */
  private readonly described = new Map<string, DescribedKey>();
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(KEYS_OPTIONS) private readonly options: KeysModuleOptions,
    private readonly repository: SigningKeyRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async onModuleInit(): Promise<void> {
    const { privateKeyPem, publicKeyPems = [] } = this.options;
    if (privateKeyPem !== undefined) {
      const signing = await this.describe(privateKeyPem);
      const others = await Promise.all(publicKeyPems.map((pem) => describePublicKey(pem)));
      this.keys = { kid: signing.publicJwk.kid!, signer: signing.signer, published: [signing.publicJwk, ...others.filter((jwk) => jwk.kid !== signing.publicJwk.kid)] };
      return;
    }
    await this.load(await this.storedKeys());
    this.refreshTimer = setInterval(() => void this.refresh(), this.options.refreshMs);
    this.refreshTimer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.refreshTimer);
  }

  /** Reads the stored keys again; on failure the keys in hand stay in use. */
  async refresh(): Promise<void> {
    try {
      await this.load(await this.unitOfWork.run((tx) => this.repository.findAll(tx)));
    } catch (error) {
      this.logger.warn({ err: error }, 'signing keys could not be re-read; keeping the current ones');
    }
  }

  /** The stored keys, the first one created when there is none; replicas starting together store exactly one. */
  private storedKeys(): Promise<StoredSigningKey[]> {
    return this.unitOfWork.run(async (tx) => {
      await this.repository.lockKeys(tx);
      const existing = await this.repository.findAll(tx);
      if (existing.length > 0) return existing;
      return [await this.repository.create(tx, await describePrivateKey(generateEd25519Pem()))];
    }, STARTUP_TRANSACTION);
  }

  private async load(stored: StoredSigningKey[]): Promise<void> {
    const ring = keyRing(stored, new Date(), this.options.timings);
    if (!ring) throw new Error('no signing key is stored');
    const signing = await this.describe(ring.signing.privateKeyPem);
    const published = await Promise.all(ring.published.map(async (key) => (await this.describe(key.privateKeyPem)).publicJwk));
    if (this.keys && this.keys.kid !== signing.publicJwk.kid) this.logger.log({ kid: signing.publicJwk.kid, previous: this.keys.kid }, 'signing with a new key');
    this.keys = { kid: signing.publicJwk.kid!, signer: signing.signer, published: [signing.publicJwk, ...published.filter((jwk) => jwk.kid !== signing.publicJwk.kid)] };
    for (const pem of this.described.keys()) if (!stored.some((key) => key.privateKeyPem === pem)) this.described.delete(pem);
  }

  private async describe(privateKeyPem: string): Promise<DescribedKey> {
    const cached = this.described.get(privateKeyPem);
    if (cached) return cached;
    const { kid, algorithm, publicJwk } = await describePrivateKey(privateKeyPem);
    const described = { publicJwk, signer: new CompactJwsSigner(createPrivateKey(privateKeyPem), algorithm, kid) };
    this.described.set(privateKeyPem, described);
    return described;
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
      amr: claims.amr,
      iss: this.options.issuer,
      aud: this.options.audience,
      iat: issuedAt,
      exp: expiresAt,
    });
    return { token, expiresAt: new Date(expiresAt * 1000) };
  }

  /** Public keys only: no JWK holds a private member. */
  jwks(): JSONWebKeySet {
    return { keys: this.active().published };
  }

  private active(): ActiveKeys {
    if (!this.keys) throw new Error('SigningKeyService used before the module was initialised');
    return this.keys;
  }
}
