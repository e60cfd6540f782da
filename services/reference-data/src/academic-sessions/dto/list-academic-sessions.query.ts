import { listQueryShape, queryBoolean, singleLine } from '@school/http';
import { z } from 'zod';

export const ACADEMIC_SESSION_SORTS = ['startDate', 'name', 'endDate'] as const;
export type AcademicSessionSort = (typeof ACADEMIC_SESSION_SORTS)[number];

/**
 * ListAcademicSessionsQueryDto (spec §2.7, contract §5). `sort` accepts `name` or `endDate`; any
 * other value, the default included, sorts by startDate.
 */
export const listAcademicSessionsQuery = z.strictObject({
  ...listQueryShape({ defaultOrder: 'desc' }),
  search: singleLine(0, 64).optional(),
  isActive: queryBoolean.optional(),
  isCurrent: queryBoolean.optional(),
  sort: z
    .string()
    .optional()
    .transform((value): AcademicSessionSort => (value === 'name' || value === 'endDate' ? value : 'startDate')),
});

export type ListAcademicSessionsQuery = z.output<typeof listAcademicSessionsQuery>;
