import * as z from 'zod';

/**
 * The `meta.pagination` of every paged answer (API contract "Lists"), shared by the server (server/core/paged.ts
 * builds it) and the client pages that read it. The resource engine's lists add `next_cursor`.
 */
export const paginationSchema = z.object({
  total: z.number().int(),
  count: z.number().int(),
  per_page: z.number().int(),
  current_page: z.number().int(),
  total_pages: z.number().int(),
  /** `total` is an estimate (the count stopped scanning). */
  total_is_estimate: z.literal(true).optional(),
  /** The count stopped at a cap: `total` is the cap ("1,000+"). */
  total_is_capped: z.literal(true).optional(),
});

export type Pagination = z.infer<typeof paginationSchema>;

/**
 * The resource engine's pagination meta: the plain one plus `next_cursor` (pass as `cursor=` with the same
 * query for the following page without an OFFSET walk; null on the last page).
 */
export const cursorPaginationSchema = paginationSchema.extend({ next_cursor: z.string().nullable() });

export type CursorPagination = z.infer<typeof cursorPaginationSchema>;

/**
 * A paged answer's `data`: one page of rows and the pagination meta (`M` adds to the meta, as logs do; `P` is
 * the engine's `CursorPagination` for its lists).
 */
export interface Paged<T, M extends object = object, P extends Pagination = Pagination> {
  data: T[];
  meta: { pagination: P } & M;
}
