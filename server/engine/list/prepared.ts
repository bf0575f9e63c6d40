import crypto from 'node:crypto';
import type { Queryable, QueryResult } from '../../db/index.ts';

/** At most this many statement texts get a name: each PostgreSQL connection keeps what it prepared. */
export const MAX_NAMED_STATEMENTS = 128;

const names = new Map<string, string>();

/**
 * The name a list statement is prepared under on PostgreSQL (db/types.ts StatementOptions), derived from
 * its text, so one name never carries two texts. Only statements whose plan cannot depend on a value are
 * named by their callers: a page read with no parameter and no OFFSET (a first page, unfiltered, in one of
 * the resource's orders) and the planner's row estimate. Those are what an unfiltered list sends on every
 * visit; a named statement skips PostgreSQL's parse and plan of them (issue 37). A filter's values would get
 * a generic plan after five runs, which can be far worse for an unselective search, and an OFFSET or cursor
 * makes a text per page: both stay unnamed. Past MAX_NAMED_STATEMENTS texts, new ones stay unnamed too (a
 * process-wide bound on what every connection keeps prepared). Example: `statementName(sql)`.
 */
export function statementName(sql: string): string | undefined {
  const known = names.get(sql);
  if (known !== undefined || names.size >= MAX_NAMED_STATEMENTS) return known;
  const name = `engine_${crypto.hash('sha256', sql, 'hex').slice(0, 32)}`;
  names.set(sql, name);
  return name;
}

/**
 * Runs `sql` as the named statement of statementName. A column it reads that changed type since a
 * connection prepared it (a migration by another process) fails there for good ("cached plan must not
 * change result type", 0A000): the statement is then run unnamed, and the text gets a new name, which every
 * connection prepares afresh. Example: `await queryPrepared(db, 'SELECT ...', [])`.
 */
export async function queryPrepared<T = Record<string, unknown>>(
  db: Queryable,
  sql: string,
  params: readonly unknown[],
): Promise<QueryResult<T>> {
  const name = statementName(sql);
  if (name === undefined) return db.query<T>(sql, params);
  try {
    return await db.query<T>(sql, params, { name });
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== STALE_PLAN) throw error;
    names.set(sql, `engine_${crypto.hash('sha256', `${name}:${sql}`, 'hex').slice(0, 32)}`);
    return db.query<T>(sql, params);
  }
}

/** SQLSTATE feature_not_supported: what PostgreSQL answers a prepared statement whose result type changed. */
const STALE_PLAN = '0A000';
