import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { lockDataDir } from './lock.ts';
import { pgliteWasmModule } from './pglite-wasm.ts';
import { tagStatement } from './statement.ts';
import type { Db, QueryResult, Queryable } from './types.ts';

const INT8 = 20;
const NUMERIC = 1700;
/** Same wire conventions as node-postgres: big integers and numerics stay strings. */
const parsers = { [INT8]: (v: string) => v, [NUMERIC]: (v: string) => v };
/**
 * PGlite's shared memory is allocated and zeroed byte by byte inside WebAssembly at every open: with
 * PostgreSQL's 128MB of `shared_buffers` that zeroing was the largest single cost of a cold start (about a
 * second of CPU). Pages outside the buffer pool stay in the operating system's file cache (the data
 * directory is real files), so an embedded database loses little with a smaller pool.
 */
export const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * Opens (creating when needed) an embedded PGlite database in `dir`; `null` keeps it in memory. pg_trgm is
 * loaded so the generated migrations' `CREATE EXTENSION IF NOT EXISTS pg_trgm` and trigram indexes apply.
 * A directory is locked for this process first (`<dir>.lock`, server/db/lock.ts; PGlite has no lock of its
 * own): a second process, or a second open in this one, throws DataDirLockedError; `close()` releases it.
 */
export async function openPglite(dir: string | null): Promise<Db> {
  let unlock = () => {};
  if (dir) {
    fs.mkdirSync(dir, { recursive: true });
    unlock = await lockDataDir(dir);
  }
  let pg: PGlite;
  try {
    pg = await PGlite.create(dir ?? undefined, {
      pgliteWasmModule: await pgliteWasmModule(),
      parsers,
      extensions: { pg_trgm },
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    });
  } catch (error) {
    unlock();
    throw error;
  }
  const statements = { count: 0, ms: 0 };
  const counted = async <T>(run: () => Promise<T>): Promise<T> => {
    const began = performance.now();
    try {
      return await run();
    } finally {
      statements.count += 1;
      statements.ms += performance.now() - began;
    }
  };
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      try {
        const res = await counted(() => q.query<T>(sql, params as unknown[]));
        return { rows: res.rows, rowCount: res.affectedRows ?? res.rows.length };
      } catch (error) {
        throw tagStatement(error, sql);
      }
    },
    async exec(sql: string) {
      await counted(() => q.exec(sql));
    },
  });
  const base = wrap(pg);
  return {
    kind: 'pglite',
    query: base.query,
    exec: base.exec,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    async listen(channel, onPayload) {
      const unsub = await counted(() => pg.listen(channel, onPayload));
      return async () => unsub();
    },
    async close() {
      try {
        await pg.close();
      } finally {
        unlock();
      }
    },
    statements,
    dumpDataDir: () => pg.dumpDataDir('gzip'),
  };
}
