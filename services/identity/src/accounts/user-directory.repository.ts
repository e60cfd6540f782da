import { Injectable } from '@nestjs/common';
import { escapeLike } from '@school/prisma';
import { clientOf, type Transaction } from '@school/service';
import { Prisma, PrismaClient, type User } from '../generated/prisma/client.js';

/** A user with the EMAIL-provider password hash, or null when no password is set. */
export interface UserAccount {
  user: User;
  passwordHash: string | null;
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

/** The directory of accounts as the admin routes, profiles and exports read them: whole rows with whether a password is set. */
@Injectable()
export class UserDirectoryRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** The account live or soft-deleted (contract §11: an administrator exports either), with its password hash. */
  async findAccountByPublicId(publicId: string): Promise<UserAccount | null> {
    const row = await this.prisma.user.findFirst({ where: { publicId: publicId.toLowerCase() }, include: WITH_PASSWORD });
    return row && toAccount(row);
  }

  async findLiveAccountByPublicId(publicId: string, tx?: Transaction): Promise<UserAccount | null> {
    const row = await clientOf<Prisma.TransactionClient>(tx ?? this.prisma).user.findFirst({
      where: { publicId: publicId.toLowerCase(), deletedAt: null },
      include: WITH_PASSWORD,
    });
    return row && toAccount(row);
  }

  /**
   * Live users matching `search` (name or email, case-insensitive substring, `%` and `_` literal), by id.
   * A search is `ILIKE '%x%'`, which the trigram indexes answer (docs/decisions/0019): it costs what
   * it matches, not the table. Without one, `count` is the live accounts the triggers keep.
   */
  async list(query: UserListQuery): Promise<{ accounts: UserAccount[]; count: number }> {
    const where: Prisma.UserWhereInput = { deletedAt: null };
    if (query.search) {
      const pattern = escapeLike(query.search);
      where.OR = [{ name: { contains: pattern, mode: 'insensitive' } }, { email: { contains: pattern, mode: 'insensitive' } }];
    }
    const page = this.prisma.user.findMany({ where, include: WITH_PASSWORD, orderBy: { id: query.order }, skip: query.skip, take: query.take });
    if (query.search) {
      const [rows, count] = await this.prisma.$transaction([page, this.prisma.user.count({ where })]);
      return { accounts: rows.map(toAccount), count };
    }
    const [rows, tally] = await this.prisma.$transaction([page, this.prisma.liveUserCount.findUniqueOrThrow({ where: { id: true } })]);
    return { accounts: rows.map(toAccount), count: tally.live };
  }
}

function toAccount({ accounts, ...user }: UserWithAccounts): UserAccount {
  return { user, passwordHash: accounts[0]?.passwordHash ?? null };
}
