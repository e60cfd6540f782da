import { Injectable } from '@nestjs/common';
import type { Role } from '@school/auth';
import { isUniqueViolation } from '@school/prisma';
import { clientOf, type Transaction } from '@school/service';
import { normalizeEmail } from '@school/http';
import { Prisma, PrismaClient, type User } from '../generated/prisma/client.js';

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

/**
 * Users looked up one by one and written; "live" means not soft-deleted. The other readers of the
 * users table stand beside it in accounts/: login accounts, admins, the directory, account matches.
 */
@Injectable()
export class UsersRepository {
  constructor(private readonly prisma: PrismaClient) {}

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

  /** A redeemed invitation or password reset: the next login is the holder's own and sends no new-device email (contract §10). */
  async trustNextLogin(tx: Transaction, userId: number): Promise<void> {
    await this.db(tx).user.update({ where: { id: userId }, data: { trustsNextLogin: true } });
  }

  /** Clears the mark trustNextLogin set; true when it was set. */
  async takeLoginTrust(tx: Transaction, userId: number): Promise<boolean> {
    const { count } = await this.db(tx).user.updateMany({ where: { id: userId, trustsNextLogin: true }, data: { trustsNextLogin: false } });
    return count === 1;
  }

  /** Returns the deletion's time. */
  async softDelete(id: number, tx?: Transaction): Promise<Date> {
    const deletedAt = new Date();
    await this.db(tx).user.update({ where: { id }, data: { deletedAt } });
    return deletedAt;
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

function addressColumns(address: UserAddress | null) {
  return {
    addressProvinceId: address?.provinceId ?? null,
    addressDistrictId: address?.districtId ?? null,
    addressMunicipalityId: address?.municipalityId ?? null,
    addressWard: address?.ward ?? null,
    addressStreet: address?.street ?? null,
  };
}
