import { Injectable } from '@nestjs/common';
import type { Role } from '@school/auth';
import { escapeLike, isUniqueViolation } from '@school/prisma';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { normalizeEmail } from '@school/http';
import { Prisma, PrismaClient, type User } from '../generated/prisma/client.js';
import { addressColumnsOf, type AddressRow, type ProfileSource } from './profile.js';

type Db = Prisma.TransactionClient;

/** A person's address (contract §6); the geography ids are checked against reference data by the caller. */
export interface UserAddress {
  provinceId: number;
  districtId: number;
  municipalityId: number;
  ward?: number | null;
  street?: string | null;
}

export interface NewUser {
  publicId: string;
  email: string;
  name: string;
  role: Role;
  phone?: string | null;
  address?: UserAddress | null;
}

export interface UserChanges {
  name?: string;
  role?: Role;
  phone?: string | null;
  phoneVerifiedAt?: Date | null;
  emailVerifiedAt?: Date | null;
  banned?: boolean;
  address?: UserAddress | null;
}

/** A live user with the EMAIL-provider password hash, or null when no password is set. */
export interface UserAccount {
  user: User;
  passwordHash: string | null;
}

/** What login and the signed-in caller's own routes need of an account: the rules' inputs, the token claims and the profile. */
export interface LoginAccount {
  user: ProfileSource & { id: number; banned: boolean };
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
  email_verified_at: Date | null;
  phone_verified_at: Date | null;
  created_at: Date;
  password_hash: string | null;
}

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

export interface UserListQuery {
  search?: string | undefined;
  order: 'asc' | 'desc';
  skip: number;
  take: number;
}

const WITH_PASSWORD = {
  accounts: { where: { provider: 'EMAIL' }, select: { passwordHash: true } },
} as const satisfies Prisma.UserInclude;

type UserWithAccounts = Prisma.UserGetPayload<{ include: typeof WITH_PASSWORD }>;

/** Users; "live" means not soft-deleted. The only place that touches the users table. */
@Injectable()
export class UsersRepository {
  /** The login lookup is written in SQL, in the service's schema. */
  private readonly schema: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.schema = Prisma.raw(schema.sql);
  }

  findLiveByEmail(email: string, tx?: Transaction): Promise<User | null> {
    return this.db(tx).user.findFirst({ where: { email: normalizeEmail(email), deletedAt: null } });
  }

  /** The live account holding this phone, verified or not (phones are unique among live accounts). */
  findLiveByPhone(phone: string, tx?: Transaction): Promise<User | null> {
    return this.db(tx).user.findFirst({ where: { phone, deletedAt: null } });
  }

  /**
   * The live account whose verified phone this is (contract §4: forgot and reset by phone act only
   * on a verified phone). Should two live accounts ever hold it verified, neither: never a guess.
   */
  async findLiveByVerifiedPhone(phone: string, tx?: Transaction): Promise<User | null> {
    const users = await this.db(tx).user.findMany({ where: { phone, deletedAt: null, phoneVerifiedAt: { not: null } }, take: 2 });
    return users.length === 1 ? users[0]! : null;
  }

  /** `publicId`: a UUID (PublicIdPipe at the edge, or the subject of a token identity signed). */
  async findLiveByPublicId(publicId: string, tx?: Transaction): Promise<User | null> {
    return this.db(tx).user.findFirst({ where: { publicId: publicId.toLowerCase(), deletedAt: null } });
  }

  findLiveById(id: number, tx?: Transaction): Promise<User | null> {
    return this.db(tx).user.findFirst({ where: { id, deletedAt: null } });
  }

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
    const [row] = await this.prisma.$queryRaw<LoginRow[]>`
      SELECT u.id, u.public_id::text AS public_id, u.email, u.name, u.phone, u.role::text AS role, u.banned,
             u.email_verified_at, u.phone_verified_at, u.created_at, u.address_province_id, u.address_district_id,
             u.address_municipality_id, u.address_ward, u.address_street, pa.password_hash
        FROM ${this.schema}.users u
        LEFT JOIN ${this.schema}.provider_accounts pa ON pa.user_id = u.id AND pa.provider = 'EMAIL'
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
        emailVerifiedAt: row.email_verified_at,
        phoneVerifiedAt: row.phone_verified_at,
        createdAt: row.created_at,
        ...addressColumnsOf(row),
      },
      passwordHash: row.password_hash,
    };
  }

  /** A redeemed invitation or password reset: the next login is the holder's own and sends no new-device email (contract §10). */
  async trustNextLogin(tx: Transaction, userId: number): Promise<void> {
    await this.db(tx).user.update({ where: { id: userId }, data: { trustsNextLogin: true } });
  }

  /** Clears the mark trustNextLogin set; true when it was set. */
  async takeLoginTrust(tx: Transaction, userId: number): Promise<boolean> {
    const { count } = await this.db(tx).user.updateMany({ where: { id: userId, trustsNextLogin: true }, data: { trustsNextLogin: false } });
    return count === 1;
  }

  /** The account live or soft-deleted (contract §11: an administrator exports either), with its password hash. */
  async findAccountByPublicId(publicId: string): Promise<UserAccount | null> {
    const row = await this.prisma.user.findFirst({ where: { publicId: publicId.toLowerCase() }, include: WITH_PASSWORD });
    return row && toAccount(row);
  }

  async findLiveAccountByPublicId(publicId: string, tx?: Transaction): Promise<UserAccount | null> {
    const row = await this.db(tx).user.findFirst({ where: { publicId: publicId.toLowerCase(), deletedAt: null }, include: WITH_PASSWORD });
    return row && toAccount(row);
  }

  /**
   * Serialises bootstrap-admin creation across replicas starting together: a transaction-scoped
   * advisory lock, released at commit.
   */
  async lockBootstrap(tx: Transaction): Promise<void> {
    await this.db(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity.bootstrap_admin'))`;
  }

  /**
   * Serialises every change that could lower the number of active admins (ban, soft delete, role
   * change) until the transaction ends, so the count read after it cannot be stale: of two admins
   * demoting or banning each other at once, the second sees the first's commit.
   */
  async lockActiveAdmins(tx: Transaction): Promise<void> {
    await this.db(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtext('identity.active_admins'))`;
  }

  /** Admins neither banned nor soft-deleted (contract §6). */
  countActiveAdmins(tx?: Transaction): Promise<number> {
    return this.db(tx).user.count({ where: { role: 'admin', banned: false, deletedAt: null } });
  }

  async existsLiveAdmin(tx?: Transaction): Promise<boolean> {
    return (await this.db(tx).user.count({ where: { role: 'admin', deletedAt: null } })) > 0;
  }

  /** Throws a unique violation (see isUniqueViolation) when a live user already has the email. */
  create(user: NewUser, tx?: Transaction): Promise<User> {
    return this.db(tx).user.create({
      data: {
        publicId: user.publicId,
        email: normalizeEmail(user.email),
        name: user.name,
        role: user.role,
        phone: user.phone ?? null,
        ...(user.address != null && { ...addressColumns(user.address), addressVersion: 1 }),
      },
    });
  }

  update(id: number, changes: UserChanges, tx?: Transaction): Promise<User> {
    const { address, ...columns } = changes;
    const addressChange = address !== undefined && { ...addressColumns(address), addressVersion: { increment: 1 } };
    return this.db(tx).user.update({ where: { id }, data: { ...columns, ...addressChange } });
  }

  /** Returns the deletion's time. */
  async softDelete(id: number, tx?: Transaction): Promise<Date> {
    const deletedAt = new Date();
    await this.db(tx).user.update({ where: { id }, data: { deletedAt } });
    return deletedAt;
  }

  /** Live users matching `search` (name or email, case-insensitive substring, `%` and `_` literal), by id. */
  async list(query: UserListQuery): Promise<{ accounts: UserAccount[]; count: number }> {
    const where: Prisma.UserWhereInput = { deletedAt: null };
    if (query.search) {
      const pattern = escapeLike(query.search);
      where.OR = [{ name: { contains: pattern, mode: 'insensitive' } }, { email: { contains: pattern, mode: 'insensitive' } }];
    }
    const [rows, count] = await this.prisma.$transaction([
      this.prisma.user.findMany({ where, include: WITH_PASSWORD, orderBy: { id: query.order }, skip: query.skip, take: query.take }),
      this.prisma.user.count({ where }),
    ]);
    return { accounts: rows.map(toAccount), count };
  }

  /**
   * The live account of an email, for a code presented with it. An aggregate, so it answers one
   * row of one shape whether or not the account exists: the lookup costs the same (contract §4).
   */
  async accountByEmail(email: string): Promise<AccountMatch> {
    return toMatch(
      await this.prisma.$queryRaw<AccountMatchRow[]>`
        SELECT count(u.id)::int AS matches, min(u.id) AS id, min(u.phone) AS phone, bool_or(u.phone_verified_at IS NOT NULL) AS phone_verified
          FROM ${this.schema}.users u WHERE u.email = ${normalizeEmail(email)} AND u.deleted_at IS NULL`,
    );
  }

  /** The live accounts whose verified phone this is, as accountByEmail answers. */
  async accountByVerifiedPhone(phone: string): Promise<AccountMatch> {
    return toMatch(
      await this.prisma.$queryRaw<AccountMatchRow[]>`
        SELECT count(u.id)::int AS matches, min(u.id) AS id, min(u.phone) AS phone, bool_or(u.phone_verified_at IS NOT NULL) AS phone_verified
          FROM ${this.schema}.users u WHERE u.phone = ${phone} AND u.deleted_at IS NULL AND u.phone_verified_at IS NOT NULL`,
    );
  }

  private db(tx: Transaction | undefined): Db {
    return clientOf<Db>(tx ?? this.prisma);
  }
}

/** The partial unique indexes of the migrations that keep email and phone unique among live accounts. */
const LIVE_UNIQUE_INDEXES = { users_email_lower_live_key: 'email', users_phone_live_key: 'phone' } as const;

export type LiveUniqueField = (typeof LIVE_UNIQUE_INDEXES)[keyof typeof LIVE_UNIQUE_INDEXES];

/** Which live-account uniqueness rule a write broke (a lost race), or undefined for any other error. */
export function violatedLiveUnique(error: unknown): LiveUniqueField | undefined {
  const index = (Object.keys(LIVE_UNIQUE_INDEXES) as (keyof typeof LIVE_UNIQUE_INDEXES)[]).find((name) => isUniqueViolation(error, name));
  return index && LIVE_UNIQUE_INDEXES[index];
}

function toAccount({ accounts, ...user }: UserWithAccounts): UserAccount {
  return { user, passwordHash: accounts[0]?.passwordHash ?? null };
}

function addressColumns(address: UserAddress | null) {
  return {
    addressProvinceId: address?.provinceId ?? null,
    addressDistrictId: address?.districtId ?? null,
    addressMunicipalityId: address?.municipalityId ?? null,
    addressWard: address?.ward ?? null,
    addressStreet: address?.street ?? null,
  };
}

function toMatch([row]: AccountMatchRow[]): AccountMatch {
  return { matches: row?.matches ?? 0, id: row?.id ?? null, phone: row?.phone ?? null, phoneVerified: row?.phone_verified === true };
}
