import type { Paged, Pagination } from '../../schemas/pagination.ts';

/**
 * One page of a list in the contract's shape: `{ data, meta: { pagination } }`. `total` counts every
 * matching row; `page` and `size` are the request's. Flags (`total_is_estimate`, `total_is_capped`) are
 * set only when true. Example: `return ok(paged(rows, { total, page, size }))`.
 */
export function paged<T>(
  data: T[],
  {
    total,
    page,
    size,
    isEstimate = false,
    isCapped = false,
  }: { total: number; page: number; size: number; isEstimate?: boolean; isCapped?: boolean },
): Paged<T> {
  const pagination: Pagination = {
    total,
    count: data.length,
    per_page: size,
    current_page: page,
    total_pages: Math.ceil(total / size),
  };
  if (isEstimate) pagination.total_is_estimate = true;
  if (isCapped) pagination.total_is_capped = true;
  return { data, meta: { pagination } };
}

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
