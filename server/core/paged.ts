import * as z from 'zod';
import type { CursorPagination, Paged, Pagination } from '../../schemas/pagination.ts';

/** What a page of a list is: the count of every matching row, the request's page and size, and the flags. */
export interface PageFigures {
  total: number;
  page: number;
  size: number;
  /** `total` is an estimate (the count stopped scanning). */
  isEstimate?: boolean;
  /** The count stopped at a cap: `total` is the cap. */
  isCapped?: boolean;
}

/**
 * One page of a list in the contract's shape: `{ data, meta: { pagination } }`. `total` counts every
 * matching row; `page` and `size` are the request's. Flags (`total_is_estimate`, `total_is_capped`) are
 * set only when true. A `nextCursor` (the resource engine's lists; null on the last page) is answered as
 * `next_cursor`, right after `total_pages`. Example: `return ok(paged(rows, { total, page, size }))`.
 */
export function paged<T>(
  data: T[],
  figures: PageFigures & { nextCursor: string | null },
): Paged<T, object, CursorPagination>;
export function paged<T>(data: T[], figures: PageFigures): Paged<T>;
export function paged<T>(
  data: T[],
  {
    total,
    page,
    size,
    isEstimate = false,
    isCapped = false,
    nextCursor,
  }: PageFigures & { nextCursor?: string | null },
): Paged<T, object, Pagination> {
  const pagination: Pagination & { next_cursor?: string | null } = {
    total,
    count: data.length,
    per_page: size,
    current_page: page,
    total_pages: Math.ceil(total / size),
  };
  if (nextCursor !== undefined) pagination.next_cursor = nextCursor;
  if (isEstimate) pagination.total_is_estimate = true;
  if (isCapped) pagination.total_is_capped = true;
  return { data, meta: { pagination } };
}

/** The query `pageOf` reads, for a route's documentation (`query: unchecked(pageQuerySchema)`, core/route.ts). */
export const pageQuerySchema = z.object({
  page: z.number().int().min(1).max(1_000_000).default(1),
  size: z.number().int().min(1).max(100).default(15),
});

/**
 * The `page` and `size` of a plain paged query (`?page=2&size=20`): page 1..1,000,000 (so OFFSET stays
 * within bigint; a huge page was a 500), size 1..100, defaults 1 and 15; anything unreadable is the default.
 */
export function pageOf(query: unknown): { page: number; size: number } {
  const q = (query ?? {}) as Record<string, unknown>;
  const page = Math.max(1, Math.min(1_000_000, Number.parseInt(String(q.page ?? '1'), 10) || 1));
  const size = Math.max(1, Math.min(100, Number.parseInt(String(q.size ?? '15'), 10) || 15));
  return { page, size };
}
