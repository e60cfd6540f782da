import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import type { Prisma } from '../generated/prisma/client.js';
import type { SigningKeyMaterial } from './signing-key.js';

export interface StoredSigningKey {
  kid: string;
  privateKeyPem: string;
  createdAt: Date;
}

/** The stored signing keys; the only place that touches the signing_keys table (always in the caller's transaction). */
@Injectable()
export class SigningKeyRepository {
  /**
   * Serialises key creation across replicas starting at the same time and rotations until the
   * transaction ends: the first one creates, the others wait for it and then read its key.
   */
  async lockKeys(tx: Transaction): Promise<void> {
    await this.db(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity.signing_keys'))`;
  }

  async findAll(tx: Transaction): Promise<StoredSigningKey[]> {
    return this.db(tx).signingKey.findMany({ select: { kid: true, privateKeyPem: true, createdAt: true }, orderBy: [{ createdAt: 'asc' }, { kid: 'asc' }] });
  }

  /** Stores a key; its createdAt is the database's clock, the one every replica compares with. */
  async create(tx: Transaction, key: SigningKeyMaterial): Promise<StoredSigningKey> {
    return this.db(tx).signingKey.create({
      data: { kid: key.kid, algorithm: key.algorithm, privateKeyPem: key.privateKeyPem, publicJwk: { ...key.publicJwk } },
      select: { kid: true, privateKeyPem: true, createdAt: true },
    });
  }

  async deleteMany(tx: Transaction, kids: readonly string[]): Promise<void> {
    if (kids.length > 0) await this.db(tx).signingKey.deleteMany({ where: { kid: { in: [...kids] } } });
  }

  private db(tx: Transaction): Prisma.TransactionClient {
    return clientOf<Prisma.TransactionClient>(tx);
  }
}
