import { Injectable } from '@nestjs/common';
import type { EventPayload } from '@school/contracts';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import type { Prisma } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;
export type AddressChange = EventPayload<'identity.user_address_changed'>;

/** The users' geography usages, as identity's address events tell them. */
@Injectable()
export class AddressUsagesRepository {
  private readonly schema: string;

  constructor(schema: DatabaseSchema) {
    this.schema = schema.sql;
  }

  /** The user's address as of `version`, unless a later version is recorded already; false then. */
  async recordUsage(change: AddressChange, tx: Transaction): Promise<boolean> {
    const { address } = change;
    const written = await this.db(tx).$executeRawUnsafe(
      `INSERT INTO ${this.schema}."geography_usages" AS usage (user_id, province_id, district_id, municipality_id, version, updated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (user_id) DO UPDATE
         SET province_id = EXCLUDED.province_id, district_id = EXCLUDED.district_id, municipality_id = EXCLUDED.municipality_id,
             version = EXCLUDED.version, updated_at = now()
       WHERE usage.version < EXCLUDED.version`,
      change.userId,
      address?.provinceId ?? null,
      address?.districtId ?? null,
      address?.municipalityId ?? null,
      change.version,
    );
    return written > 0;
  }

  private db(tx: Transaction): Db {
    return clientOf<Db>(tx);
  }
}
