import { Inject, Injectable } from '@nestjs/common';
import { PrismaClient } from '../generated/prisma/client.js';
import type { SigningKeyMaterial } from './signing-key.js';

/** The stored signing key; the only place that touches the signing_keys table. */
@Injectable()
export class SigningKeyRepository {
  constructor(@Inject(PrismaClient) private readonly prisma: PrismaClient) {}

  /**
   * The PEM of the stored key, storing `create()`'s key first when there is none. Replicas starting
   * at the same time take a transaction-scoped advisory lock, so the first one creates and the
   * others wait for it and then read its key.
   */
  async findOrCreate(create: () => Promise<SigningKeyMaterial>): Promise<string> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))`;
      const existing = await tx.signingKey.findFirst({ orderBy: [{ createdAt: 'asc' }, { kid: 'asc' }] });
      if (existing) return existing.privateKeyPem;
      const key = await create();
      await tx.signingKey.create({
        data: { kid: key.kid, algorithm: key.algorithm, privateKeyPem: key.privateKeyPem, publicJwk: { ...key.publicJwk } },
      });
      return key.privateKeyPem;
    });
  }
}
