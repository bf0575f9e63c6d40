/** Result of one statement. Row values follow node-postgres conventions on both drivers:
 * int8 and numeric arrive as strings, json/jsonb parsed, timestamptz as Date. */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/** Anything that runs parameterized SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Runs several statements without parameters (migrations, pg-boss DDL). */
  exec(sql: string): Promise<void>;
}

export type DbKind = 'pglite' | 'postgres';

/** The one database interface the server uses. Example:
 * `await db.transaction(async (tx) => tx.query('insert into t (a) values ($1)', [1]))` */
export interface Db extends Queryable {
  kind: DbKind;
  /** Runs `fn` inside BEGIN/COMMIT; any throw rolls back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: a consistent tarball (gzip) of the data directory, for backups. */
  dumpDataDir?(): Promise<Blob>;
}
