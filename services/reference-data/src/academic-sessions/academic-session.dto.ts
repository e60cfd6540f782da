import type { AcademicSessionDto } from '@school/contracts';
import type { AcademicSession } from '../generated/prisma/client.js';
import { fromDateColumn } from './calendar-date.js';

/** AcademicSessionDto (spec §2.7, declared with the routes) of a row. */
export function toAcademicSessionDto(row: AcademicSession): AcademicSessionDto {
  return {
    id: row.id,
    publicId: row.publicId,
    name: row.name,
    startDate: fromDateColumn(row.startDate),
    endDate: fromDateColumn(row.endDate),
    isCurrent: row.isCurrent,
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
