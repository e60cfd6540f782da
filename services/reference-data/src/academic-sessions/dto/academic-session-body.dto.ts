import { singleLine } from '@school/http';
import { z } from 'zod';
import { isCalendarDate } from '../calendar-date.js';

/** Spec §8: an academic session name is 1-64 characters (after trimming; single-line, contract §3). */
const name = singleLine(1, 64);

/** Spec §2.7: an ISO date `YYYY-MM-DD` that exists in the calendar (2025-02-30 does not), RFC 3339's full-date. */
const isoDate = z.string().refine(isCalendarDate, 'must be a date YYYY-MM-DD').meta({ format: 'date' });

/** CreateAcademicSessionDto (spec §2.7). */
export const createAcademicSessionBody = z.strictObject({
  name,
  startDate: isoDate,
  endDate: isoDate,
  isCurrent: z.boolean().default(false),
  isActive: z.boolean().default(true),
});

export type CreateAcademicSessionBody = z.output<typeof createAcademicSessionBody>;

/** UpdateAcademicSessionDto (spec §2.7): every field optional, same validation as create. */
export const updateAcademicSessionBody = z.strictObject({
  name: name.optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  isCurrent: z.boolean().optional(),
  isActive: z.boolean().optional(),
});

export type UpdateAcademicSessionBody = z.output<typeof updateAcademicSessionBody>;
