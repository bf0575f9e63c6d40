import path from 'node:path';
import type { Config } from '../config.ts';
import { pgliteWasmModule } from './pglite-wasm.ts';
import type { Db } from './types.ts';

export type { Db, Queryable, QueryResult, DbKind, StatementOptions } from './types.ts';

/**
 * Opens the database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR/db.
 * Each driver is imported only when chosen, so a PGlite start never loads node-postgres and the reverse.
 */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Db> {
  if (config.databaseUrl) return (await import('./postgres.ts')).openPostgres(config.databaseUrl);
  // PGlite's WebAssembly compiles on V8's threads while PGlite's JavaScript (and the server) loads.
  void pgliteWasmModule();
  return (await import('./pglite.ts')).openPglite(path.join(config.dataDir, 'db'));
}
