import { z } from 'zod';
import { listQueryShape, UNPAGINATED_CAP } from '@school/contracts';
import { pageInfo, pageWindow } from './list-query.js';
import { validate } from './validation.js';

const query = z.strictObject({ ...listQueryShape({ defaultOrder: 'desc' }), search: z.string().optional() });
const parse = (input: Record<string, string>) => validate(query, input);

describe('listQueryShape (contract §5)', () => {
  it('defaults to page 1 of 20, the list order, paginated', () => {
    expect(parse({})).toEqual({ page: 1, size: 20, order: 'desc', pagination: true });
  });

  it('accepts the documented values', () => {
    expect(parse({ page: '3', size: '100', order: 'asc', pagination: '0' })).toEqual({ page: 3, size: 100, order: 'asc', pagination: false });
    expect(parse({ pagination: 'true' }).pagination).toBe(true);
  });

  it.each([
    ['size over 100', { size: '101' }, 'size'],
    ['size 0', { size: '0' }, 'size'],
    ['a negative page', { page: '-1' }, 'page'],
    ['a fractional page', { page: '1.5' }, 'page'],
    ['an order that is not asc or desc', { order: 'sideways' }, 'order'],
    ['a boolean that is not true/1/false/0', { pagination: 'yes' }, 'pagination'],
  ])('refuses %s with VALIDATION_FAILED naming the field', (_name, input, field) => {
    expect(() => parse(input)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', errors: [expect.objectContaining({ field })] }));
  });
});

describe('pageWindow and pageInfo', () => {
  it('reads one page', () => {
    const page = { page: 3, size: 20, order: 'asc' as const, pagination: true };
    expect(pageWindow(page)).toEqual({ skip: 40, take: 20 });
    expect(pageInfo(page, 41)).toEqual({ count: 41, currentPage: 3, totalPage: 3 });
    expect(pageInfo(page, 0)).toEqual({ count: 0, currentPage: 3, totalPage: 0 });
  });

  it('reads everything up to the cap with pagination=false, as page 1', () => {
    const all = { page: 7, size: 20, order: 'asc' as const, pagination: false };
    expect(pageWindow(all)).toEqual({ skip: 0, take: UNPAGINATED_CAP });
    expect(pageInfo(all, 1500)).toEqual({ count: 1500, currentPage: 1, totalPage: 1 });
    expect(pageInfo(all, 0)).toEqual({ count: 0, currentPage: 1, totalPage: 0 });
  });
});
