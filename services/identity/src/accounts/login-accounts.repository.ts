import { Injectable } from '@nestjs/common';
import type { Role } from '@school/auth';
import { DatabaseSchema } from '@school/service';
import { normalizeEmail } from '@school/http';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { addressColumnsOf, type AddressRow, type ProfileSource } from './profile.js';

/** What login and the signed-in caller's own routes need of an account: the rules' inputs, the token claims and the profile. */
export interface LoginAccount {
  /** `trustsNextLogin`: the first login after a redeemed invitation or reset sends no new-device email (contract §10). */
  user: ProfileSource & { id: number; banned: boolean; trustsNextLogin: boolean };
  passwordHash: string | null;
}

interface LoginRow extends AddressRow {
  id: number;
  public_id: string;
  email: string;
  name: string;
  phone: string | null;
  role: Role;
  banned: boolean;
  trusts_next_login: boolean;
  email_verified_at: Date | null;
  phone_verified_at: Date | null;
  created_at: Date;
  password_hash: string | null;
}

/** The accounts login, refresh and the signed-in caller read: hot paths, one query each. */
@Injectable()
export class LoginAccountsRepository {
  /** Its lookups are written in SQL, in the service's schema. */
  constructor(
    private readonly prisma: PrismaClient,
    private readonly schema: DatabaseSchema,
  ) {}

  /**
   * The login lookup, in one query (login is a hot path): the live user with the email and its
   * password hash (null when none is set).
   */
  findLoginAccount(email: string): Promise<LoginAccount | null> {
    return this.findLiveAccount(Prisma.sql`u.email = ${normalizeEmail(email)}`);
  }

  /** The signed-in caller's account (`me`, set password), in the same one query: `publicId` is the subject of a token identity signed. */
  findCallerAccount(publicId: string): Promise<LoginAccount | null> {
    return this.findLiveAccount(Prisma.sql`u.public_id = ${publicId.toLowerCase()}::uuid`);
  }

  /** The account of a session being refreshed (a hot path), in the same one query. */
  findLiveAccountById(id: number): Promise<LoginAccount | null> {
    return this.findLiveAccount(Prisma.sql`u.id = ${id}`);
  }

  private async findLiveAccount(condition: Prisma.Sql): Promise<LoginAccount | null> {
    const schema = Prisma.raw(this.schema.sql);
    const [row] = await this.prisma.$queryRaw<LoginRow[]>`
      SELECT u.id, u.public_id::text AS public_id, u.email, u.name, u.phone, u.role::text AS role, u.banned, u.trusts_next_login,
             u.email_verified_at, u.phone_verified_at, u.created_at, u.address_province_id, u.address_district_id,
             u.address_municipality_id, u.address_ward, u.address_street, pa.password_hash
        FROM ${schema}.users u
        LEFT JOIN ${schema}.provider_accounts pa ON pa.user_id = u.id AND pa.provider = 'EMAIL'
       WHERE ${condition} AND u.deleted_at IS NULL`;
    if (!row) return null;
    return {
      user: {
        id: row.id,
        publicId: row.public_id,
        email: row.email,
        name: row.name,
        phone: row.phone,
        role: row.role,
        banned: row.banned,
        trustsNextLogin: row.trusts_next_login,
        emailVerifiedAt: row.email_verified_at,
        phoneVerifiedAt: row.phone_verified_at,
        createdAt: row.created_at,
        ...addressColumnsOf(row),
      },
      passwordHash: row.password_hash,
    };
  }
}
