import { Injectable } from '@nestjs/common';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Prisma } from '../generated/prisma/client.js';

type Db = PrismaClient | Prisma.TransactionClient;

/** The EMAIL provider account holding a user's password hash. */
@Injectable()
export class ProviderAccountsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async passwordHashOf(userId: number, db: Db = this.prisma): Promise<string | null> {
    const account = await db.providerAccount.findUnique({
      where: { userId_provider: { userId, provider: 'EMAIL' } },
      select: { passwordHash: true },
    });
    return account?.passwordHash ?? null;
  }

  async setPasswordHash(userId: number, passwordHash: string, db: Db = this.prisma): Promise<void> {
    await db.providerAccount.upsert({
      where: { userId_provider: { userId, provider: 'EMAIL' } },
      create: { userId, provider: 'EMAIL', passwordHash },
      update: { passwordHash },
    });
  }
}
