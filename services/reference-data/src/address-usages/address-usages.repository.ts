import { Injectable } from '@nestjs/common';
import type { EventPayload } from '@school/contracts';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;
export type AddressChange = EventPayload<'identity.user_address_changed'>;

/** Above every address version identity gives (they count a user's address writes; the payload's bound). */
const ERASED_VERSION = 2_147_483_647;

/** The users' geography usages, as identity's address events tell them. */
@Injectable()
export class AddressUsagesRepository {
  private readonly usages: Prisma.Sql;

  constructor(schema: DatabaseSchema) {
    this.usages = Prisma.raw(`${schema.sql}."geography_usages"`);
  }

  /** The user's address as of `version`, unless a later version is recorded already; false then. */
  async recordUsage(change: AddressChange, tx: Transaction): Promise<boolean> {
    const { address } = change;
    // A conditional upsert (only a later version writes), which the typed client's upsert cannot say.
    const written = await this.db(tx).$executeRaw`
      INSERT INTO ${this.usages} AS usage (user_id, province_id, district_id, municipality_id, version, updated_at)
      VALUES (${change.userId}, ${address?.provinceId ?? null}, ${address?.districtId ?? null}, ${address?.municipalityId ?? null}, ${change.version}, now())
      ON CONFLICT (user_id) DO UPDATE
        SET province_id = EXCLUDED.province_id, district_id = EXCLUDED.district_id, municipality_id = EXCLUDED.municipality_id,
            version = EXCLUDED.version, updated_at = now()
      WHERE usage.version < EXCLUDED.version`;
    return written > 0;
  }

  /**
   * An erased user (contract §11): no address, at a version no event of theirs can pass, so an
   * address event delivered after the erasure writes nothing back. The row names the publicId only.
   */
  async forgetUser(userId: string, tx: Transaction): Promise<void> {
    await this.recordUsage({ userId, address: null, version: ERASED_VERSION, claimId: null }, tx);
  }

  private db(tx: Transaction): Db {
    return clientOf<Db>(tx);
  }
}
