import type { ResourceHeader } from '../../../resources/meta.ts';

/**
 * Whether a resource keeps deleted records in the trash: every resource unless it declares
 * `softDelete: false` (resources/define.ts isSoftDelete). The browser's descriptor carries the declared
 * options as plain data, so the option is read from there.
 */
export function hasTrash(resource: ResourceHeader): boolean {
  return (resource.options as { softDelete?: boolean }).softDelete !== false;
}

/**
 * Resources whose delete may remove the record from its holders first (`DELETE <path>/<id>?detach=1`): the
 * contract allows it for roles only (a role staff hold); a department's holders stay a plain 409.
 */
const DETACHABLE = new Set(['roles']);

export function isDetachable(resource: ResourceHeader): boolean {
  return DETACHABLE.has(resource.name);
}

/**
 * How many records hold the one a delete was refused for: the 409's `errors.holders` (a number from the
 * shell's httpClient, a string once react-admin's dataProvider has turned errors into form messages);
 * null for any other error.
 */
export function holdersOf(error: unknown): number | null {
  if (!error || typeof error !== 'object') return null;
  const { status, errors, body } = error as {
    status?: unknown;
    errors?: { holders?: unknown };
    body?: { errors?: { holders?: unknown } };
  };
  if (Number(status) !== 409) return null;
  const raw = errors?.holders ?? body?.errors?.holders;
  const value = Array.isArray(raw) ? raw[0] : raw;
  const count = Number(value);
  return value !== undefined && value !== null && Number.isFinite(count) ? count : null;
}

/** The message of an error to show as it comes (the server's, in the caller's language). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
