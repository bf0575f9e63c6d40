import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { startPgCluster, type PgCluster } from '../../scripts/lib/pg-cluster.ts';
import { buildApp, type BuildAppOptions } from '../../server/app.ts';
import { issueToken } from '../../server/credentials/tokens.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import type { Db } from '../../server/db/index.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';

/** A database for one bench run, and how to give it back. */
export interface BenchDb {
  db: Db;
  /** The PostgreSQL URL (for psql), or null on PGlite. */
  url: string | null;
  close(): Promise<void>;
}

/**
 * Opens the bench's database: on `postgres`, DATABASE_URL or a throwaway PostgreSQL 15 cluster started for
 * the run; on `pglite`, an on-disk PGlite in a temp directory (as `npm start` runs it: an in-memory PGlite
 * keeps its temp files in WASM memory too). `close()` stops and removes what was started.
 */
export async function openBenchDb(driver: string, prefix = 'bench-'): Promise<BenchDb> {
  if (driver === 'postgres') {
    let cluster: PgCluster | null = null;
    let url = process.env.DATABASE_URL;
    if (!url) {
      cluster = await startPgCluster({ log: () => {} });
      url = cluster.url;
    }
    const db = await openPostgres(url, { max: 10 });
    return {
      db,
      url,
      async close() {
        await db.close();
        cluster?.destroy();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const db = await openPglite(dir);
  return {
    db,
    url: null,
    async close() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The application over `db` for a bench: no job runner unless `jobs` (without, an export streams over HTTP
 * whatever its size; with jobs, a big one answers 202), no log file, no front end.
 */
export async function serveBench(
  db: Db,
  options: {
    dataDir: string;
    modules?: BuildAppOptions['modules'];
    jobs?: boolean;
    /** Settings besides the bench's (e.g. `csvExportParts`). */
    config?: Partial<Config>;
    /** Gets the app's own config object, which a bench may change between rounds (read when used). */
    onConfig?: (config: Config) => void;
  },
): Promise<FastifyInstance> {
  const config = {
    ...loadConfig({ DATA_DIR: options.dataDir }),
    jobs: options.jobs ?? false,
    logToFile: false,
    distDir: '/nonexistent',
    ...options.config,
  };
  options.onConfig?.(config);
  return buildApp({ db, config, logger: pino({ level: 'error' }), modules: options.modules });
}

/** A bearer token of the `admin` user (created by ensureFirstAdmin). */
export async function adminToken(db: Db): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
  return (await issueToken(db, { userId: rows[0]!.id, remember: false })).accessToken;
}
