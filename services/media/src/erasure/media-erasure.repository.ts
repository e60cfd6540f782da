import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import type { Prisma } from '../generated/prisma/client.js';

/** The uploads an erasure (contract §11) removes: every file an account uploaded, private and public. */
@Injectable()
export class MediaErasureRepository {
  /** The storage keys of every file `ownerId` (a publicId) uploaded that is recorded now. */
  async keysOf(tx: Transaction, ownerId: string): Promise<string[]> {
    const rows = await clientOf<Prisma.TransactionClient>(tx).upload.findMany({ where: { ownerId }, select: { relativePath: true } });
    return rows.map((row) => row.relativePath);
  }

  /** Their records, once their objects are gone: the owner's stored bytes (the quota) drop with them. */
  async forget(tx: Transaction, ownerId: string, keys: readonly string[]): Promise<number> {
    const { count } = await clientOf<Prisma.TransactionClient>(tx).upload.deleteMany({ where: { ownerId, relativePath: { in: [...keys] } } });
    return count;
  }
}
