import { z } from 'zod';
import { queryBoolean } from './text-fields.js';

/** Contract §5: `size` defaults to 20 and is at most 100. */
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
/** Contract §5: `pagination=false` returns every match up to this many rows. */
export const UNPAGINATED_CAP = 1000;
/** A page number beyond any real list: refused before it becomes an OFFSET. */
const PAGE_MAX = 1_000_000;

const positiveInteger = (max: number) =>
  z
    .string()
    .regex(/^\d{1,9}$/, 'must be a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1, 'must be at least 1').max(max, `must be at most ${max}`));

export type SortOrder = 'asc' | 'desc';

/**
 * The shared list parameters of contract §5 as a zod shape, to spread into a list's strict query
 * schema next to its own filters: `page`, `size`, `order` (the list's default), `pagination`.
 */
export function listQueryShape(options: { defaultOrder: SortOrder }) {
  return {
    page: positiveInteger(PAGE_MAX).default(1),
    size: positiveInteger(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
    order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).default(options.defaultOrder),
    pagination: queryBoolean.default(true),
  };
}
