import { Injectable } from '@nestjs/common';
import { escapeLike } from '@school/prisma';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
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
  private readonly users: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.users = Prisma.raw(`${schema.sql}."users"`);
  }

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
   * Without a search, `count` is the live accounts the triggers keep (docs/decisions/0019), read
   * beside the page. A search is `ILIKE '%x%'`, which the trigram indexes answer: one scan of them
   * gives both the page's ids and the count (a window over the matches), so a search costs what it
   * matches, once, and the page's rows are then read by id.
   */
  async list(query: UserListQuery): Promise<{ accounts: UserAccount[]; count: number }> {
    const page = { include: WITH_PASSWORD, orderBy: { id: query.order } } as const;
    if (!query.search) {
      const [rows, tally] = await Promise.all([
        this.prisma.user.findMany({ ...page, where: { deletedAt: null }, skip: query.skip, take: query.take }),
        this.prisma.liveUserCount.findUniqueOrThrow({ where: { id: true } }),
      ]);
      return { accounts: rows.map(toAccount), count: tally.live };
    }
    const { ids, count } = await this.matchingPage(query.search, query);
    const rows = ids.length > 0 ? await this.prisma.user.findMany({ ...page, where: { id: { in: ids } } }) : [];
    return { accounts: rows.map(toAccount), count };
  }

  private async matchingPage(search: string, { order, skip, take }: UserListQuery): Promise<{ ids: number[]; count: number }> {
    const pattern = `%${escapeLike(search)}%`;
    const matches = Prisma.sql`${this.users}.deleted_at IS NULL AND (${this.users}.name ILIKE ${pattern} OR ${this.users}.email ILIKE ${pattern})`;
    const rows = await this.prisma.$queryRaw<{ id: number; matches: bigint }[]>`
      SELECT id, count(*) OVER () AS matches FROM ${this.users} WHERE ${matches}
       ORDER BY id ${order === 'asc' ? Prisma.sql`ASC` : Prisma.sql`DESC`} LIMIT ${take} OFFSET ${skip}`;
    if (rows.length > 0) return { ids: rows.map((row) => row.id), count: Number(rows[0]!.matches) };
    // A page past the last match has no row to carry the count.
    const [counted] = skip > 0 ? await this.prisma.$queryRaw<{ matches: bigint }[]>`SELECT count(*) AS matches FROM ${this.users} WHERE ${matches}` : [];
    return { ids: [], count: Number(counted?.matches ?? 0) };
  }
}

function toAccount({ accounts, ...user }: UserWithAccounts): UserAccount {
  return { user, passwordHash: accounts[0]?.passwordHash ?? null };
}
