import { Injectable } from '@nestjs/common';
import { DatabaseSchema } from '@school/service';
import { normalizeEmail } from '@school/http';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

/**
 * The live accounts an address names, as one row whatever the answer: `matches` of them (0, 1, or
 * more should a phone ever be shared), the first one's id, phone and whether its phone is verified.
 */
export interface AccountMatch {
  matches: number;
  id: number | null;
  phone: string | null;
  phoneVerified: boolean;
}

interface AccountMatchRow {
  matches: number;
  id: number | null;
  phone: string | null;
  phone_verified: boolean | null;
}

/** The account a code is presented for (reset by code): lookups of one cost whether or not the account exists (contract §4). */
@Injectable()
export class AccountMatchesRepository {
  /** Its lookups are written in SQL, in the service's schema. */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly schema: DatabaseSchema,
  ) {}

  /**
   * The live account of an email, for a code presented with it. An aggregate, so it answers one
   * row of one shape whether or not the account exists: the lookup costs the same (contract §4).
   */
  async accountByEmail(email: string): Promise<AccountMatch> {
    return toMatch(
      await this.prisma.$queryRaw<AccountMatchRow[]>`
        SELECT count(u.id)::int AS matches, min(u.id) AS id, min(u.phone) AS phone, bool_or(u.phone_verified_at IS NOT NULL) AS phone_verified
          FROM ${this.users} u WHERE u.email = ${normalizeEmail(email)} AND u.deleted_at IS NULL`,
    );
  }

  /** The live accounts whose verified phone this is, as accountByEmail answers. */
  async accountByVerifiedPhone(phone: string): Promise<AccountMatch> {
    return toMatch(
      await this.prisma.$queryRaw<AccountMatchRow[]>`
        SELECT count(u.id)::int AS matches, min(u.id) AS id, min(u.phone) AS phone, bool_or(u.phone_verified_at IS NOT NULL) AS phone_verified
          FROM ${this.users} u WHERE u.phone = ${phone} AND u.deleted_at IS NULL AND u.phone_verified_at IS NOT NULL`,
    );
  }

  /** The users table, qualified by the service's schema. */
  private get users(): Prisma.Sql {
    return Prisma.raw(`${this.schema.sql}.users`);
  }
}

function toMatch([row]: AccountMatchRow[]): AccountMatch {
  return { matches: row?.matches ?? 0, id: row?.id ?? null, phone: row?.phone ?? null, phoneVerified: row?.phone_verified === true };
}
