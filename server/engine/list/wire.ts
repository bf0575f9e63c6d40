import { KEYS } from './keyset.ts';

/** A record as the API sends it: the row's values with the id as a string. */
export type WireRecord = Record<string, unknown> & { id: string };

/**
 * A database row as the contract sends it: ids as strings, timestamps as ISO 8601 UTC, without the list's
 * sort-keys column (keyset.ts KEYS, which a page's rows still carry). One pass: a new object built in the
 * row's column order (the row is left as it is), so every list's rows keep one shape and a page's rows are
 * copied once between pg and the answer (issue 37: the page's copy without the keys, then this one, were two).
 */
export function toWire(row: Record<string, unknown>): WireRecord {
  const out: Record<string, unknown> = {};
  for (const key in row) {
    if (key === KEYS) continue;
    const value = row[key];
    out[key] =
      value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? String(value) : value;
  }
  out.id = String(row.id);
  return out as WireRecord;
}
