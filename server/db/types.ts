import type { Readable } from 'node:stream';

/** Result of one statement. Row values follow node-postgres conventions on both drivers:
 * int8 and numeric arrive as strings, json/jsonb parsed, timestamptz as Date. */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** Anything that runs parameterized SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(
    sql: string,
    params?: readonly unknown[],
    options?: StatementOptions,
  ): Promise<QueryResult<T>>;
  /** Runs several statements without parameters (migrations, pg-boss DDL). */
  exec(sql: string): Promise<void>;
}

/**
 * `name`: PostgreSQL prepares the statement under this name once per connection and runs it again without
 * parsing or planning it (a named prepared statement); the same name must always carry the same text
 * (engine/list/prepared.ts derives it from the text). PGlite, and any wrapper that does not pass it on,
 * runs the statement unnamed: the answer is the same either way.
 */
export interface StatementOptions {
  name?: string;
}

export type DbKind = 'pglite' | 'postgres';

/** A COPY ... TO STDOUT in progress: the CSV bytes, then `rowCount` once the stream has ended. */
export interface CopyOutStream extends Readable {
  rowCount: number;
}

/** The one database interface the server uses. Example:
 * `await db.transaction(async (tx) => tx.query('insert into t (a) values ($1)', [1]))` */
export interface Db extends Queryable {
  kind: DbKind;
  /** Runs `fn` inside BEGIN/COMMIT; any throw rolls back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. `everyConnection` (PostgreSQL):
   * every pooled connection listens too, so a change this process commits is known before its query
   * resolves (a payload may then arrive more than once: only for idempotent handlers, such as cache drops).
   * PGlite, one connection in process, always delivers before the query resolves. `onGap` (PostgreSQL): runs
   * after the listening connection broke and was reconnected, since notifications may have been missed.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    options?: { everyConnection?: boolean; onGap?: () => void },
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: streams `COPY (<sql>) TO STDOUT WITH (FORMAT csv)` from a read-only transaction on a
   * connection of its own, with back-pressure. `params` are bound as in `query` ($1..$n) and `settings` are
   * SET LOCAL for the statement; no value enters the SQL text. Destroying the stream ends the COPY.
   * `snapshot`: a `pg_export_snapshot()` id another transaction holds open; the COPY reads exactly that
   * snapshot (REPEATABLE READ), so several COPYs give the parts of one consistent result (csv/export.ts).
   */
  copyOut?(
    sql: string,
    params: readonly unknown[],
    settings?: Readonly<Record<string, string>>,
    options?: { snapshot?: string },
  ): Promise<CopyOutStream>;
  /**
   * PGlite only: statements run so far (queries, exec batches, LISTENs; those inside transactions too) and the
   * milliseconds they took. The start's `server started` line reports them (issue 37 item 3: cold start).
   */
  statements?: { count: number; ms: number };
  /** PGlite only: a consistent tarball (gzip) of the data directory, for backups. */
  dumpDataDir?(): Promise<Blob>;
}
