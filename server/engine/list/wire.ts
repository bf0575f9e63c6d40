/** A record as the API sends it: the row's values with the id as a string. */
export type WireRecord = Record<string, unknown> & { id: string };

/**
 * A database row as the contract sends it: ids as strings, timestamps as ISO 8601 UTC. A copy (the row is
 * left as it is), made by spreading, which keeps every list's rows one shape: on every list call.
 */
export function toWire(row: Record<string, unknown>): WireRecord {
  const out: Record<string, unknown> = { ...row };
  for (const key in out) {
    const value = out[key];
    if (value instanceof Date) out[key] = value.toISOString();
    else if (typeof value === 'bigint') out[key] = String(value);
  }
  out.id = String(row.id);
  return out as WireRecord;
}
