import { AppError } from './errors.ts';

/**
 * The one mapping of database errors to the contract, for every route (engine and hand-written): the error
 * handler (http.ts) applies it to whatever escapes a route, and the engine (server/engine/write/db-errors.ts) adds
 * field names and counts it knows from the resource declaration.
 *
 * - unique violation (23505) -> 409 naming the field (`<table>_<column>_key`)
 * - foreign key (23503/23001): the record is still used -> 409 "in use"; a referenced id is missing -> 422 on
 *   the field
 * - data exception (class 22: out of range, bad text, invalid value) and 23502/23514 -> 422
 * - the database cannot be reached (refused, cut, restarting, too many connections) -> 503 with Retry-After
 * - the disk is full (PostgreSQL's and PGlite's 53100 disk_full, e.g. "could not extend file", or a file
 *   write's ENOSPC / EDQUOT: uploads, the local storage) -> 507; nothing was saved, reads still work
 */
export type DbErrorKind = 'unique' | 'foreignKey' | 'inUse' | 'data' | 'unavailable' | 'diskFull';

export interface DbErrorLike {
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
  detail?: string;
  message?: string;
}

/** Seconds a client should wait before retrying when the database is unreachable. */
export const DB_RETRY_AFTER = 5;

/** SQLSTATE classes / codes and socket errors that mean "no database right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown (server stopping)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up / shutting down)
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
]);

/** SQLSTATE 53100 disk_full (PGlite raises it too) and the file system's "no space" errnos. */
const DISK_FULL_CODES = new Set(['53100', 'ENOSPC', 'EDQUOT']);

const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /not queryable/i,
  /timeout exceeded when trying to connect/i,
  /connection (?:is )?closed/i,
  /terminating connection/i,
  /the database system is (?:starting up|shutting down|in recovery mode)/i,
  /Cannot use a pool after calling end/i,
];

export function classifyDbError(error: unknown): DbErrorKind | null {
  if (!error || typeof error !== 'object') return null;
  const e = error as DbErrorLike;
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === '23505') return 'unique';
  // ON DELETE RESTRICT raises 23001, NO ACTION 23503 "is still referenced": both mean "in use".
  if (code === '23001') return 'inUse';
  if (code === '23503') return /referenced from/i.test(e.detail ?? '') ? 'inUse' : 'foreignKey';
  if (code.startsWith('22') && code.length === 5) return 'data';
  if (code === '23502' || code === '23514') return 'data';
  if (DISK_FULL_CODES.has(code)) return 'diskFull';
  if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return 'unavailable';
  if (!code && error instanceof Error && UNAVAILABLE_MESSAGES.some((p) => p.test(e.message ?? '')))
    return 'unavailable';
  return null;
}

/** `<table>_<column>_<suffix>` -> column (the engine's and the hand-written migrations' naming). */
export function columnOfConstraint(e: DbErrorLike): string | undefined {
  if (e.column) return e.column;
  const c = e.constraint;
  if (!c) return undefined;
  const withoutSuffix = c.replace(/_(key|fkey|check|idx)$/, '');
  if (e.table && withoutSuffix.startsWith(`${e.table}_`)) return withoutSuffix.slice(e.table.length + 1);
  return undefined;
}

/** The referencing table of a "still referenced from table X" violation. */
export function referencingTable(e: DbErrorLike): string | undefined {
  return /from table "?([\w.]+)"?/i.exec(e.detail ?? '')?.[1] ?? e.table;
}

/**
 * The AppError for a database error, or null when it is not one this mapping knows (a real 500).
 * `label(field)` names a field; `usedBy` the message of an "in use" 409 when the caller counted the users.
 */
export function appErrorOfDb(
  error: unknown,
  { label = (f: string) => f }: { label?: (field: string) => string } = {},
): AppError | null {
  const kind = classifyDbError(error);
  if (!kind) return null;
  const e = error as DbErrorLike;
  switch (kind) {
    case 'unavailable':
      return new AppError(503, 'errors.db_unavailable', {
        headers: { 'retry-after': String(DB_RETRY_AFTER) },
      });
    case 'diskFull':
      return new AppError(507, 'errors.disk_full');
    case 'unique': {
      const field = columnOfConstraint(e) ?? '_';
      return AppError.conflict(field, label(field));
    }
    case 'foreignKey': {
      const field = columnOfConstraint(e) ?? '_';
      return AppError.validation({ [field]: ['engine.record.reference_missing'] });
    }
    case 'inUse':
      return new AppError(409, 'engine.record.in_use', { fields: { id: ['engine.record.in_use_short'] } });
    case 'data': {
      const field = e.code === '23502' || e.code === '23514' ? (columnOfConstraint(e) ?? '_') : '_';
      return AppError.validation({ [field]: ['validation.invalid'] });
    }
  }
}
