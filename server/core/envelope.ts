/** Success envelope of the contract: `{ code: 200, data }` (also for HTTP 201 creates). */
export function ok<T>(data: T): { code: 200; data: T } {
  return { code: 200, data };
}

/**
 * A success envelope with `meta` beside `data`: what the call adds about itself (a bulk call's or an
 * import's `operation_id`, for undo). Example: `okWithMeta(ids, { operation_id: '7' })`.
 */
export function okWithMeta<T, M extends Record<string, unknown>>(
  data: T,
  meta: M,
): { code: 200; data: T; meta: M } {
  return { code: 200, data, meta };
}

export interface ErrorEnvelope {
  code: number;
  message: string;
  /** null, except the current record in a stale version's 409 (contract: "Nothing lost"). */
  data: unknown;
  errors?: Record<string, string[] | number>;
}
