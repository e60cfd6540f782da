import { Injectable } from '@nestjs/common';
import { AppError, type PageInfo, pageInfo, pageWindow } from '@school/http';
import { isSerializationFailure, isUniqueViolation, uuidv7 } from '@school/prisma';
import { auditChanges, AuditRecorder } from '@school/messaging';
import { UnitOfWork } from '@school/service';
import type { AcademicSession } from '../generated/prisma/client.js';
import { datesValid, decidePatch, deleteRefusal, type SessionState } from './academic-session-rules.js';
import type { AcademicSessionDto } from '@school/contracts';
import { toAcademicSessionDto } from './academic-session.dto.js';
import type { ListCache } from '../list-cache/list-cache.js';
import { ListCaches } from '../list-cache/list-cache.module.js';
import { fromDateColumn } from './calendar-date.js';
import { ACADEMIC_SESSION_INDEXES, type AcademicSessionChanges, AcademicSessionsRepository, isDatesViolation } from './academic-sessions.repository.js';
import type { CreateAcademicSessionBody, ListAcademicSessionsQuery, UpdateAcademicSessionBody } from '@school/contracts';

export interface AcademicSessionPage {
  sessions: AcademicSessionDto[];
  page: PageInfo;
}

/** The fields of a session an administrator sets, as an audit entry shows their change (contract §13). */
const AUDITED_FIELDS = ['name', 'startDate', 'endDate', 'isCurrent', 'isActive'] as const;

const notFound = () => new AppError('ACADEMIC_SESSION_NOT_FOUND');

/**
 * A write that lost to a concurrent one, as the answer the rules give: a name taken meanwhile,
 * another session made current meanwhile (the one-current index, or a serialization failure or
 * deadlock between two handovers), or the other end of the range moved meanwhile.
 */
function lostRace(error: unknown): AppError | undefined {
  if (isUniqueViolation(error, ACADEMIC_SESSION_INDEXES.nameLower)) return new AppError('ACADEMIC_SESSION_NAME_TAKEN');
  if (isUniqueViolation(error, ACADEMIC_SESSION_INDEXES.oneCurrent) || isSerializationFailure(error)) return new AppError('ACADEMIC_SESSION_CURRENT_CONFLICT');
  if (isDatesViolation(error)) return new AppError('ACADEMIC_SESSION_DATES_INVALID');
  return undefined;
}

/**
 * Academic sessions (spec §2.7, §3.2, §4.6): named school years, at most one of them current and,
 * once one is, always one. Handing "current" over unsets the incumbent before setting the new row,
 * in one transaction; of two concurrent handovers the second loses on the one-current index.
 * Every successful write clears the list cache of every replica, and is audited in its transaction.
 */
@Injectable()
export class AcademicSessionsService {
  private readonly cache: ListCache;

  constructor(
    private readonly sessions: AcademicSessionsRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly audit: AuditRecorder,
    caches: ListCaches,
  ) {
    this.cache = caches.named('academic-sessions');
  }

  async list(query: ListAcademicSessionsQuery): Promise<AcademicSessionPage> {
    const filter = normalised(query);
    return this.cache.read(filter, async () => {
      const { rows, count } = await this.sessions.list({ ...filter, ...pageWindow(query) });
      return { sessions: rows.map(toAcademicSessionDto), page: pageInfo(query, count) };
    });
  }

  /** Spec §4.6 rule 2: with isCurrent true, the incumbent is unset first, then the row inserted. */
  async create(body: CreateAcademicSessionBody): Promise<AcademicSessionDto> {
    if (!datesValid(body.startDate, body.endDate)) throw new AppError('ACADEMIC_SESSION_DATES_INVALID');
    const created = await this.writing(() =>
      this.unitOfWork.run(async (tx) => {
        if (body.isCurrent) await this.sessions.unsetCurrent(tx);
        const row = await this.sessions.create({ publicId: uuidv7(), ...body }, tx);
        const changes = auditChanges(undefined, toAcademicSessionDto(row), AUDITED_FIELDS);
        await this.audit.record(tx, { action: 'academic_session.create', target: { type: 'academic_session', id: row.publicId }, changes });
        return row;
      }),
    );
    return toAcademicSessionDto(created);
  }

  /** Table §3.2 for PATCH: refusals before any write; `isCurrent: true` hands "current" over. */
  async update(publicId: string, body: UpdateAcademicSessionBody): Promise<AcademicSessionDto> {
    const updated = await this.writing(() =>
      this.unitOfWork.run(async (tx) => {
        const stored = await this.sessions.lockByPublicId(publicId, tx);
        if (!stored) throw notFound();
        const decision = decidePatch(toState(stored), body);
        if (decision.refuse) throw new AppError(decision.refuse);
        if (decision.becomesCurrent) await this.sessions.unsetCurrent(tx, stored.id);
        const changes: AcademicSessionChanges = {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.startDate !== undefined && { startDate: body.startDate }),
          ...(body.endDate !== undefined && { endDate: body.endDate }),
          ...(body.isActive !== undefined && { isActive: body.isActive }),
          ...(decision.becomesCurrent && { isCurrent: true as const }),
        };
        const row = await this.sessions.update(stored.id, changes, tx);
        const audited = auditChanges(toAcademicSessionDto(stored), toAcademicSessionDto(row), AUDITED_FIELDS);
        await this.audit.record(tx, { action: 'academic_session.update', target: { type: 'academic_session', id: row.publicId }, changes: audited });
        return row;
      }),
    );
    return toAcademicSessionDto(updated);
  }

  /** Hard delete of a session that is not current (spec §2.7, table §3.2). */
  async remove(publicId: string): Promise<void> {
    await this.writing(() =>
      this.unitOfWork.run(async (tx) => {
        const stored = await this.sessions.lockByPublicId(publicId, tx);
        if (!stored) throw notFound();
        const refusal = deleteRefusal(stored);
        if (refusal) throw new AppError(refusal);
        await this.sessions.delete(stored.id, tx);
        const changes = auditChanges(toAcademicSessionDto(stored), undefined, AUDITED_FIELDS);
        await this.audit.record(tx, { action: 'academic_session.delete', target: { type: 'academic_session', id: stored.publicId }, changes });
      }),
    );
  }

  /** Runs a write, maps a lost race to its rule's error, and clears the list cache once it committed. */
  private async writing<T>(write: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await write();
    } catch (error) {
      throw lostRace(error) ?? error;
    }
    await this.cache.invalidate();
    return result;
  }
}

function toState(row: AcademicSession): SessionState {
  return { startDate: fromDateColumn(row.startDate), endDate: fromDateColumn(row.endDate), isCurrent: row.isCurrent };
}

/** The query as the list sees it, so that equivalent queries share one cache entry. */
function normalised(query: ListAcademicSessionsQuery) {
  return {
    search: query.search || undefined,
    isActive: query.isActive,
    isCurrent: query.isCurrent,
    sort: query.sort,
    order: query.order,
    pagination: query.pagination,
    ...(query.pagination && { page: query.page, size: query.size }),
  };
}
