import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import { type Prisma, PrismaClient } from '../generated/prisma/client.js';

type Db = Prisma.TransactionClient;

export interface UploadRecord {
  ownerId: string;
  uploadType: string;
  relativePath: string;
  filename: string;
  originalName: string;
  mimeType: string;
  size: number;
  isPublic: boolean;
}

/** What a person's copy of their data shows of a file they uploaded. */
export interface StoredFile {
  relativePath: string;
  uploadType: string;
  originalName: string;
  mimeType: string;
  size: bigint;
  createdAt: Date;
}

/** The only place that touches the uploads table: one row per stored file. */
@Injectable()
export class UploadsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async record(upload: UploadRecord, tx?: Transaction): Promise<void> {
    await this.db(tx).upload.create({ data: { id: randomUUID(), ...upload, size: BigInt(upload.size) } });
  }

  async remove(relativePath: string, tx?: Transaction): Promise<void> {
    await this.db(tx).upload.deleteMany({ where: { relativePath } });
  }

  /** Until the transaction ends, other writers of this owner's uploads wait (quota checks never interleave). */
  async lockOwner(ownerId: string, tx: Transaction): Promise<void> {
    await this.db(tx).$executeRaw`SELECT pg_advisory_xact_lock(hashtext('media.uploads.owner'), hashtext(${ownerId}))`;
  }

  /** Every file `ownerId` uploaded that is stored now, public ones included, oldest first (contract §11). */
  storedBy(ownerId: string): Promise<StoredFile[]> {
    return this.prisma.upload.findMany({
      where: { ownerId },
      select: { relativePath: true, uploadType: true, originalName: true, mimeType: true, size: true, createdAt: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
  }

  /** Bytes stored for `ownerId`, every upload type together. */
  async storedBytes(ownerId: string, tx?: Transaction): Promise<number> {
    const { _sum } = await this.db(tx).upload.aggregate({ where: { ownerId }, _sum: { size: true } });
    return Number(_sum.size ?? 0n);
  }

  private db(tx?: Transaction): Db {
    return clientOf<Db>(tx ?? this.prisma);
  }
}
