/**
 * The fields of `data` that differ from `previous` (deep comparison), so an update PATCHes only what the
 * user changed. `id` and timestamps are never sent.
 */
export function changedFields(
  data: Record<string, unknown>,
  previous: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (NEVER_SENT.has(key)) continue;
    if (!isEqual(value, previous[key])) out[key] = value;
  }
  return out;
}

const NEVER_SENT = new Set(['id', 'created_at', 'updated_at', 'version']);

function isEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // A blank is a blank: a field the record lacks and the form shows empty has not changed.
  if (isBlank(a) && isBlank(b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    if (!isEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** An empty value (what an empty input holds). Kept here, not in formPayload.ts, so updates load no zod. */
export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}
