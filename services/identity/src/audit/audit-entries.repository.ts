import { Injectable } from '@nestjs/common';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { Prisma, PrismaClient, type AuditEntry } from '../generated/prisma/client.js';
import type { AuditPosition } from './audit-cursor.js';
import type { AuditChanges } from './erasure-scrub.js';

type Db = Prisma.TransactionClient;

export type StoredAuditEntry = AuditEntry;

export interface NewAuditEntry {
  id: string;
  occurredAt: Date;
  actor: { publicId: string; email: string | null; role: string } | null;
  action: string;
  resource: string;
  target: { type: string; id: string | null } | null;
  changes: AuditChanges;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** The filters of contract §13, resolved: `resource` for `action=<resource>.*`. */
export interface AuditFilter {
  actor?: string | undefined;
  action?: string | undefined;
  resource?: string | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The audit trail's tables: the only file touching them. Entries are inserted, scrubbed on erasure and pruned, never edited otherwise. */
@Injectable()
export class AuditEntriesRepository {
  private readonly schema: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.schema = Prisma.raw(schema.sql);
  }

  /**
   * Serialises the entries of these accounts with their erasure: an entry being stored holds the
   * shared lock of each account it names, an erasure's scrub the exclusive one. So either the scrub
   * sees the stored entry, or the store sees the erasure. Taken in a fixed order: no deadlock.
   */
  async lockAccounts(tx: Transaction, publicIds: readonly string[], mode: 'shared' | 'exclusive'): Promise<void> {
    const db = clientOf<Db>(tx);
    for (const publicId of [...new Set(publicIds)].sort()) {
      const key = Prisma.sql`hashtextextended(${`audit-account:${publicId}`}, 0)`;
      if (mode === 'shared') await db.$executeRaw`SELECT pg_advisory_xact_lock_shared(${key})`;
      else await db.$executeRaw`SELECT pg_advisory_xact_lock(${key})`;
    }
  }

  async erasedAmong(tx: Transaction, publicIds: readonly string[]): Promise<Set<string>> {
    if (publicIds.length === 0) return new Set();
    const rows = await clientOf<Db>(tx).auditErasedAccount.findMany({ where: { publicId: { in: [...publicIds] } }, select: { publicId: true } });
    return new Set(rows.map((row) => row.publicId));
  }

  /** Stores the entry once: false when its id is stored already (the same event delivered again). */
  async insert(tx: Transaction, entry: NewAuditEntry): Promise<boolean> {
    const { count } = await clientOf<Db>(tx).auditEntry.createMany({
      data: {
        id: entry.id,
        occurredAt: entry.occurredAt,
        actorPublicId: entry.actor?.publicId ?? null,
        actorEmail: entry.actor?.email ?? null,
        actorRole: entry.actor?.role ?? null,
        action: entry.action,
        resource: entry.resource,
        targetType: entry.target?.type ?? null,
        targetId: entry.target?.id ?? null,
        changes: entry.changes as Prisma.InputJsonObject,
        ip: entry.ip,
        userAgent: entry.userAgent,
        requestId: entry.requestId,
      },
      skipDuplicates: true,
    });
    return count > 0;
  }

  async markErased(tx: Transaction, publicId: string, erasedAt: Date): Promise<void> {
    await clientOf<Db>(tx).auditErasedAccount.createMany({ data: { publicId, erasedAt }, skipDuplicates: true });
  }

  /** The erased account keeps its publicId in the entries it acted in, and loses its email. */
  async forgetActorEmail(tx: Transaction, publicId: string): Promise<number> {
    const { count } = await clientOf<Db>(tx).auditEntry.updateMany({ where: { actorPublicId: publicId, actorEmail: { not: null } }, data: { actorEmail: null } });
    return count;
  }

  entriesTargetingUser(tx: Transaction, publicId: string): Promise<Pick<AuditEntry, 'id' | 'changes'>[]> {
    return clientOf<Db>(tx).auditEntry.findMany({ where: { targetType: 'user', targetId: publicId }, select: { id: true, changes: true } });
  }

  async replaceChanges(tx: Transaction, id: string, changes: AuditChanges): Promise<void> {
    await clientOf<Db>(tx).auditEntry.update({ where: { id }, data: { changes: changes as Prisma.InputJsonObject } });
  }

  /**
   * Newest first, ties by id ascending (contract §5), starting after `after`: a keyset on
   * (occurred_at DESC, id). `occurred_at <= t` is the index condition, so a page deep in the trail
   * costs what the first one does; the tie rule only filters rows of that one instant.
   */
  list(filter: AuditFilter, after: AuditPosition | undefined, take: number): Promise<AuditEntry[]> {
    const where: Prisma.AuditEntryWhereInput[] = [];
    if (filter.actor) where.push({ actorPublicId: filter.actor });
    if (filter.action) where.push({ action: filter.action });
    if (filter.resource) where.push({ resource: filter.resource });
    if (filter.targetType) where.push({ targetType: filter.targetType });
    if (filter.targetId) where.push({ targetId: filter.targetId });
    if (filter.from) where.push({ occurredAt: { gte: filter.from } });
    if (filter.to) where.push({ occurredAt: { lte: filter.to } });
    if (after) {
      where.push({ occurredAt: { lte: after.occurredAt } }, { OR: [{ occurredAt: { lt: after.occurredAt } }, { id: { gt: after.id } }] });
    }
    return this.prisma.auditEntry.findMany({ where: { AND: where }, orderBy: [{ occurredAt: 'desc' }, { id: 'asc' }], take });
  }

  /**
   * Deletes up to `batch` entries older than `cutoff`; rows another replica is deleting are
   * skipped (SKIP LOCKED), so any number of replicas prune at once without waiting on each other.
   */
  async pruneBatch(cutoff: Date, batch: number): Promise<number> {
    return this.prisma.$executeRaw`
      DELETE FROM ${this.schema}."audit_entries" WHERE id IN (
        SELECT id FROM ${this.schema}."audit_entries" WHERE occurred_at < ${cutoff} ORDER BY occurred_at LIMIT ${batch} FOR UPDATE SKIP LOCKED)`;
  }

  /** Erasures older than the entries kept: no entry naming the account can still arrive or remain. */
  async pruneErased(cutoff: Date): Promise<number> {
    const { count } = await this.prisma.auditErasedAccount.deleteMany({ where: { erasedAt: { lt: cutoff } } });
    return count;
  }
}
