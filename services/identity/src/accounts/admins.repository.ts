import { Injectable } from '@nestjs/common';
import { clientOf, type Transaction } from '@school/service';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

/** The admins' locks and counts: the bootstrap admin's creation and the last active admin's guard. */
@Injectable()
export class AdminsRepository {
  constructor(private readonly prisma: PrismaClient) {}

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

  private db(tx: Transaction | undefined): Prisma.TransactionClient {
    return clientOf<Prisma.TransactionClient>(tx ?? this.prisma);
  }
}
