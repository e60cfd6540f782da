import { type SortOrder, UNPAGINATED_CAP } from '@school/contracts';
import type { PageInfo } from './envelope.js';

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
