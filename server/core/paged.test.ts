import { describe, expect, it } from 'vitest';
import { cursorPaginationSchema, paginationSchema } from '../../schemas/pagination.ts';
import { pageOf, paged } from './paged.ts';

describe('paged', () => {
  it('builds the contract meta from the rows, the total and the request', () => {
    const page = paged(['a', 'b'], { total: 32, page: 3, size: 15 });
    expect(page).toEqual({
      data: ['a', 'b'],
      meta: { pagination: { total: 32, count: 2, per_page: 15, current_page: 3, total_pages: 3 } },
    });
    expect(paginationSchema.safeParse(page.meta.pagination).success).toBe(true);
  });

  it('sets the estimate and cap flags only when true', () => {
    expect(paged([], { total: 0, page: 1, size: 15 }).meta.pagination).not.toHaveProperty('total_is_capped');
    const flagged = paged([1], { total: 1050, page: 1, size: 50, isEstimate: true, isCapped: true });
    expect(flagged.meta.pagination).toMatchObject({
      total_is_estimate: true,
      total_is_capped: true,
      total_pages: 21,
    });
  });

  it('answers next_cursor right after total_pages when the list has cursors, null on the last page', () => {
    const first = paged(['a'], { total: 2, page: 1, size: 1, nextCursor: 'abc', isEstimate: true });
    expect(JSON.stringify(first.meta.pagination)).toBe(
      '{"total":2,"count":1,"per_page":1,"current_page":1,"total_pages":2,"next_cursor":"abc","total_is_estimate":true}',
    );
    expect(cursorPaginationSchema.safeParse(first.meta.pagination).success).toBe(true);
    expect(
      paged(['b'], { total: 2, page: 2, size: 1, nextCursor: null }).meta.pagination.next_cursor,
    ).toBeNull();
    expect(paged([], { total: 0, page: 1, size: 15 }).meta.pagination).not.toHaveProperty('next_cursor');
  });
});

describe('pageOf', () => {
  it('reads page and size, clamps them and falls back to the defaults', () => {
    expect(pageOf({ page: '2', size: '20' })).toEqual({ page: 2, size: 20 });
    expect(pageOf(undefined)).toEqual({ page: 1, size: 15 });
    expect(pageOf({ page: '0', size: '1000' })).toEqual({ page: 1, size: 100 });
    expect(pageOf({ page: '99999999999', size: 'x' })).toEqual({ page: 1_000_000, size: 15 });
    expect(pageOf({ page: ['3', '4'] })).toEqual({ page: 3, size: 15 });
  });
});
