import { Injectable } from '@nestjs/common';
import { escapeLike } from '@school/prisma';
import { clientOf, DatabaseSchema, type Transaction } from '@school/service';
import { type AcademicSession, Prisma, PrismaClient } from '../generated/prisma/client.js';
import { toDateColumn } from './calendar-date.js';
import type { AcademicSessionSort } from '@school/contracts';

type Db = Prisma.TransactionClient;

export interface NewAcademicSession {
  publicId: string;
  name: string;
  startDate: string;
  endDate: string;
  isCurrent: boolean;
  isActive: boolean;
}

export interface AcademicSessionChanges {
  name?: string;
  startDate?: string;
  endDate?: string;
  isCurrent?: true;
  isActive?: boolean;
}

export interface AcademicSessionListQuery {
  search?: string | undefined;
  isActive?: boolean | undefined;
  isCurrent?: boolean | undefined;
  sort: AcademicSessionSort;
  order: 'asc' | 'desc';
  skip: number;
  take: number;
}

/** The rules of the migration's SQL that the service maps to its errors (see schema.prisma). */
export const ACADEMIC_SESSION_INDEXES = {
  nameLower: 'academic_sessions_name_lower_key',
  oneCurrent: 'academic_sessions_one_current_key',
} as const;
const DATES_CHECK = 'academic_sessions_dates_check';

/** Academic sessions (spec §2.7): the only place that touches their table. */
@Injectable()
export class AcademicSessionsRepository {
  private readonly schema: Prisma.Sql;

  constructor(
    private readonly prisma: PrismaClient,
    schema: DatabaseSchema,
  ) {
    this.schema = Prisma.raw(schema.sql);
  }

  /**
   * The row, locked until the transaction ends, so that a handover, a delete and the rules read
   * in between see one state. The publicId is a UUID (PublicIdPipe).
   */
  async lockByPublicId(publicId: string, tx: Transaction): Promise<AcademicSession | null> {
    const db = this.db(tx);
    const [row] = await db.$queryRaw<{ id: number }[]>`
      SELECT id FROM ${this.schema}.academic_sessions WHERE public_id = ${publicId}::uuid FOR UPDATE`;
    return row ? db.academicSession.findUnique({ where: { id: row.id } }) : null;
  }

  /** Unsets the current session, if any (other than `exceptId`): always before a set (spec §4.6 rule 2). */
  async unsetCurrent(tx: Transaction, exceptId?: number): Promise<void> {
    await this.db(tx).academicSession.updateMany({ where: { isCurrent: true, ...(exceptId !== undefined && { id: { not: exceptId } }) }, data: { isCurrent: false } });
  }

  create(session: NewAcademicSession, tx: Transaction): Promise<AcademicSession> {
    return this.db(tx).academicSession.create({
      data: { ...session, startDate: toDateColumn(session.startDate), endDate: toDateColumn(session.endDate) },
    });
  }

  update(id: number, changes: AcademicSessionChanges, tx: Transaction): Promise<AcademicSession> {
    const { startDate, endDate, ...rest } = changes;
    return this.db(tx).academicSession.update({
      where: { id },
      data: { ...rest, ...(startDate !== undefined && { startDate: toDateColumn(startDate) }), ...(endDate !== undefined && { endDate: toDateColumn(endDate) }) },
    });
  }

  async delete(id: number, tx: Transaction): Promise<void> {
    await this.db(tx).academicSession.delete({ where: { id } });
  }

  /** Matching rows in the list's order, ties by id ascending whatever the order (contract §5). */
  async list(query: AcademicSessionListQuery): Promise<{ rows: AcademicSession[]; count: number }> {
    const where: Prisma.AcademicSessionWhereInput = {};
    if (query.search) where.name = { contains: escapeLike(query.search), mode: 'insensitive' };
    if (query.isActive !== undefined) where.isActive = query.isActive;
    if (query.isCurrent !== undefined) where.isCurrent = query.isCurrent;
    const [rows, count] = await this.prisma.$transaction([
      this.prisma.academicSession.findMany({ where, orderBy: [{ [query.sort]: query.order }, { id: 'asc' }], skip: query.skip, take: query.take }),
      this.prisma.academicSession.count({ where }),
    ]);
    return { rows, count };
  }

  private db(tx: Transaction | undefined): Db {
    return clientOf<Db>(tx ?? this.prisma);
  }
}

interface CheckViolation {
  code?: unknown;
  constraint?: unknown;
  meta?: { driverAdapterError?: { cause?: { code?: unknown; message?: unknown } } };
}

/**
 * The write broke `academic_sessions_dates_check` (SQLSTATE 23514): a concurrent PATCH moved the
 * other end of the range after this one read it. Prisma reports the constraint in Postgres' message.
 */
export function isDatesViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const shape = error as CheckViolation;
  if (shape.code === '23514') return shape.constraint === DATES_CHECK;
  const cause = shape.meta?.driverAdapterError?.cause;
  return cause?.code === '23514' && typeof cause.message === 'string' && cause.message.includes(`"${DATES_CHECK}"`);
}
