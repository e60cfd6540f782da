import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import type { Prisma } from '../generated/prisma/client.js';

/** The EMAIL provider account holding a user's password hash, written in the caller's transaction. */
@Injectable()
export class ProviderAccountsRepository {
  async setPasswordHash(tx: Transaction, userId: number, passwordHash: string): Promise<void> {
    await clientOf<Prisma.TransactionClient>(tx).providerAccount.upsert({
      where: { userId_provider: { userId, provider: 'EMAIL' } },
      create: { userId, provider: 'EMAIL', passwordHash },
      update: { passwordHash },
    });
  }
}
