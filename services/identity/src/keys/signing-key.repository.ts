import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import type { Prisma } from '../generated/prisma/client.js';
import type { SigningKeyMaterial } from './signing-key.js';

/** The stored signing key; the only place that touches the signing_keys table (always in the caller's transaction). */
@Injectable()
export class SigningKeyRepository {
  /**
   * Serialises key creation across replicas starting at the same time until the transaction ends:
   * the first one creates, the others wait for it and then read its key.
   */
  async lockKeys(tx: Transaction): Promise<void> {
    await this.db(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))`;
  }

  /** The PEM of the first key stored, or null when there is none. */
  async findFirstPem(tx: Transaction): Promise<string | null> {
    const existing = await this.db(tx).signingKey.findFirst({ orderBy: [{ createdAt: 'asc' }, { kid: 'asc' }] });
    return existing?.privateKeyPem ?? null;
  }

  async create(tx: Transaction, key: SigningKeyMaterial): Promise<void> {
    await this.db(tx).signingKey.create({
      data: { kid: key.kid, algorithm: key.algorithm, privateKeyPem: key.privateKeyPem, publicJwk: { ...key.publicJwk } },
    });
  }

  private db(tx: Transaction): Prisma.TransactionClient {
    return clientOf<Prisma.TransactionClient>(tx);
  }
}
