import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import type { Prisma } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;

/** The one thing the audit store asks of the accounts: the email of an account, live or soft-deleted. */
@Injectable()
export class AccountEmailsRepository {
  async emailOf(publicId: string, tx: Transaction): Promise<string | null> {
    const user = await clientOf<Db>(tx).user.findUnique({ where: { publicId: publicId.toLowerCase() }, select: { email: true } });
    return user?.email ?? null;
  }
}
