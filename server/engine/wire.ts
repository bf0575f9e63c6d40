/** A record as the API sends it: the row's values with the id as a string. */
export type WireRecord = Record<string, unknown> & { id: string };

/** A database row as the contract sends it: ids as strings, timestamps as ISO 8601 UTC. */
export function toWire(row: Record<string, unknown>): WireRecord {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    out[key] =
      value instanceof Date ? value.toISOString() : typeof value === 'bigint' ? String(value) : value;
  }
  out.id = String(row.id);
  return out as WireRecord;
}
