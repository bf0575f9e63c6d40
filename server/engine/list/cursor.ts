import crypto from 'node:crypto';
import type { Resource } from '../../../resources/define.ts';
import { classifyDbError } from '../../core/db-errors.ts';
import { AppError } from '../../core/errors.ts';
import type { ListQuery, SortKey } from './query.ts';
import type { Total } from './totals.ts';

/**
 * `next_cursor` (contract amendment "Totals and deep pages"): the sort keys of a page's last row plus the
 * query's fingerprint, the next page's number and the total already known, as base64url JSON. A cursor that
 * is not one of ours, or belongs to another query, is a 422 on `cursor`.
 */
export interface CursorState {
  keys: (string | null)[];
  page: number;
  total: Total;
}

/** Longest `cursor` accepted (a cursor of ours holds one page's sort keys). */
const MAX_CURSOR = 8_192;

export function encodeCursor(resource: Resource, q: ListQuery, state: CursorState): string {
  const { total, isEstimate, isCapped } = state.total;
  const body = {
    v: 1,
    q: fingerprint(resource, q),
    k: state.keys,
    p: state.page,
    t: total,
    ...(isEstimate ? { e: 1 } : {}),
    ...(isCapped ? { c: 1 } : {}),
  };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The cursor's state, after checking it is one of ours for this very query; a 422 on `cursor` otherwise. */
export function decodeCursor(resource: Resource, q: ListQuery, cursor: string): CursorState {
  let body: unknown;
  try {
    if (cursor.length > MAX_CURSOR || !/^[\w-]+$/.test(cursor)) throw new Error('shape');
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!isOurs(resource, q, body)) throw badCursor();
  return {
    keys: body.k,
    page: body.p,
    total: { total: body.t, isEstimate: body.e === 1, isCapped: body.c === 1 },
  };
}

/** A key of a forged cursor the column cannot hold (class 22: bad number, date...) is the cursor's fault. */
export async function badCursorOnDataError<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (classifyDbError(error) === 'data') throw badCursor();
    throw error;
  }
}

/** A cursor's body as encodeCursor writes it (`e`, `c`: the total is an estimate, is capped). */
interface CursorBody {
  v: 1;
  q: string;
  k: (string | null)[];
  p: number;
  t: number;
  e?: unknown;
  c?: unknown;
}

/** Whether a decoded body is a cursor of ours for this query: version, fingerprint, keys, page and total. */
function isOurs(resource: Resource, q: ListQuery, body: unknown): body is CursorBody {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Partial<Record<keyof CursorBody, unknown>>;
  const keys = b.k;
  return (
    b.v === 1 &&
    b.q === fingerprint(resource, q) &&
    Array.isArray(keys) &&
    keys.length === q.order.length &&
    keys.every((k, i) => validKey(q.order[i]!, k)) &&
    Number.isSafeInteger(b.p) &&
    (b.p as number) >= 2 &&
    Number.isSafeInteger(b.t) &&
    (b.t as number) >= 0
  );
}

/** The query a cursor belongs to: the filter, its values, the order and the page size. */
function fingerprint(resource: Resource, q: ListQuery): string {
  const text = JSON.stringify([resource.name, q.where, q.params.map(String), q.orderBy, q.size]);
  return crypto.hash('sha256', text, 'base64url').slice(0, 16);
}

function validKey(key: SortKey, value: unknown): boolean {
  if (key.field === 'id') return typeof value === 'string' && /^\d{1,19}$/.test(value);
  if (value === null) return key.isNullable;
  return typeof value === 'string' && value.length <= 4096 && !value.includes('\u0000');
}

function badCursor(): AppError {
  return new AppError(422, 'engine.query.bad_cursor', {
    fields: { cursor: ['engine.query.bad_cursor_short'] },
  });
}
