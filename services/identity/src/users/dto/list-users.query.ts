import { queryBoolean, singleLine } from '@school/http';
import { z } from 'zod';

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
/** `pagination=false` returns every match up to this many rows (contract §5). */
export const UNPAGINATED_CAP = 1000;

const positiveInteger = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(max, `must be at most ${max}`));

/** Contract §5 list parameters for `GET /api/users`: rows by id, `search` over name and email. */
export const listUsersQuery = z.strictObject({
  page: positiveInteger(1_000_000).default(1),
  size: positiveInteger(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).default('asc'),
  pagination: queryBoolean.default(true),
  search: singleLine(0, 255).optional(),
});

export type ListUsersQuery = z.output<typeof listUsersQuery>;
