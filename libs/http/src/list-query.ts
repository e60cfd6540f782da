import { z } from 'zod';
import type { PageInfo } from './envelope.js';
import { queryBoolean } from './validation.js';

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

export interface ListQuery {
  page: number;
  size: number;
  order: SortOrder;
  pagination: boolean;
}

/** The rows a query asks for: one page, or the first UNPAGINATED_CAP with `pagination=false`. */
export function pageWindow(query: ListQuery): { skip: number; take: number } {
  return query.pagination ? { skip: (query.page - 1) * query.size, take: query.size } : { skip: 0, take: UNPAGINATED_CAP };
}

/** `count`, `currentPage` and `totalPage` of a paginated envelope (contract §3, §5). */
export function pageInfo(query: ListQuery, count: number): PageInfo {
  if (!query.pagination) return { count, currentPage: 1, totalPage: count > 0 ? 1 : 0 };
  return { count, currentPage: query.page, totalPage: Math.ceil(count / query.size) };
}
