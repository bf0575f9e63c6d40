/**
 * What `npm start` runs (compiled by scripts/start.mjs into dist-server/start.cjs): build the front end when
 * it is stale, then start the server (API + built app) on PORT. `tsx scripts/start.ts` runs it from source.
 * The server's `startup_ms` log field counts from the start of this process, minus the builds.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/index.ts';
import { DataDirLockedError } from '../server/db/lock.ts';
import { ensureFrontendBuilt, repoRoot } from './lib/frontend.ts';

const say = (line: string): void => void process.stdout.write(`[start] ${line}\n`);

/**
 * Starts the server; `serverBuildMs` is the time scripts/start.mjs spent compiling it (left out of
 * startup_ms like the front-end build). Resolves, once it listens, to its HTTP server (scripts/start.mjs
 * takes the code cache after its first answer). Example: `const server = await start(0)`.
 */
export async function start(serverBuildMs = 0): Promise<http.Server> {
  // Keeps the event loop holding a timer until the server listens. While PGlite compiles and opens its
  // WebAssembly the start waits on promises that V8 settles from its own threads, with no I/O of Node's
  // pending. Node then finds its loop empty and drains the platform: it blocks until every V8 background task
  // has finished, PGlite's functions being recompiled by the optimizing tier included, running in between
  // the continuations those tasks post. The rest of the start then ran inside that drain, and the drain went
  // on after the listen: the first request waited 40-160 ms on an idle main thread (issue 37 item 3).
  const holdLoop = setInterval(() => undefined, 60_000);
  try {
    process.chdir(repoRoot);
    // main() loads .env too; loading it here first lets DIST_DIR in .env steer the build check.
    if (fs.existsSync('.env')) process.loadEnvFile('.env');
    const buildMs = await ensureFrontendBuilt({ log: say });
    const config = loadConfig(process.env);
    const dataNote = config.databaseUrl
      ? 'PostgreSQL from DATABASE_URL'
      : `embedded PGlite in ${path.resolve(config.dataDir, 'db')}`;
    say(`server: starting (${dataNote}) ...`);
    // The database opens (PGlite reads and compiles its WebAssembly) while the rest of the server loads:
    // it is imported only now, so that a build does not run with the whole server already loaded.
    const db = openDatabase(config);
    db.catch(() => undefined); // main() awaits it; this only keeps an early failure from going unhandled
    // One turn of the event loop first: PGlite locks the directory and starts its reads (its file-system
    // bundle, pg_trgm) before the rest of the server loads, which then hides them instead of waiting after.
    await new Promise((resolve) => setImmediate(resolve));
    const { main } = await import('../server/main.ts');
    // main() logs startup_ms = performance.now() - startedAt; performance.now() counts from process start,
    // so passing the build times measures process start to listening, minus the builds.
    const running = await main(buildMs + serverBuildMs, { config, db });
    const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
    say(`ready: http://${shown}:${config.port}/  (API under /api, docs at /api/docs; Ctrl-C stops)`);
    return running.app.server;
  } catch (err: unknown) {
    // A data directory another process holds is the operator's to resolve: its message, no stack trace.
    const shown =
      err instanceof DataDirLockedError
        ? err.message
        : err instanceof Error
          ? (err.stack ?? err.message)
          : String(err);
    process.stderr.write(`[start] failed: ${shown}\n`);
    process.exit(1);
  } finally {
    clearInterval(holdLoop);
  }
}

// Run directly (`tsx scripts/start.ts`); the compiled build is started by scripts/start.mjs instead.
const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) void start();
