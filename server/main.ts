import fs from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { negotiateLocale, translate } from '../locales/index.ts';
import { buildApp } from './app.ts';
import { drainOf } from './core/drain.ts';
import { ensureFirstAdmin } from './bootstrap.ts';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type Db } from './db/index.ts';
import { MIGRATIONS_DIR, migrate } from './db/migrate.ts';
import { forgetAppliedTo } from './engine/schema/pending-migrations.ts';

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  /** Origin it listens on, e.g. `http://127.0.0.1:3000`. */
  address: string;
  /**
   * Drains, then closes: new requests get 503 while the ones already received finish (at most `graceMs`,
   * default SHUTDOWN_GRACE_SECONDS; then they are cut), then the app (event streams, jobs, storage) and the
   * database close.
   */
  close(opts?: { graceMs?: number }): Promise<void>;
}

/**
 * Start-up without the process wiring (signals, exit): open and migrate the database, create the first
 * admin, build the app and listen. Several servers may run it at the same moment against one PostgreSQL
 * (migrations, the first admin and pg-boss's queues are serialized or retried). Example:
 * `const server = await startServer(loadConfig(process.env)); ...; await server.close();`
 */
export async function startServer(
  config: Config,
  startedAt = performance.now(),
  opening: Promise<Db> = openDatabase(config),
): Promise<RunningServer> {
  const db = await opening;
  try {
    await untilReachable(db, config);
    const applied = await migrate(db);
    forgetAppliedTo(config, applied, MIGRATIONS_DIR);
    const admin = await ensureFirstAdmin(db, {
      username: config.adminUsername,
      password: config.adminPassword,
    });
    const app = await buildApp({ db, config, startsAfterListen: true });
    if (applied.length) app.log.info({ migrations: applied }, 'migrations applied');
    if (admin.created) app.log.info({ username: config.adminUsername }, 'first administrator created');
    if (admin.generatedPassword) {
      // Printed once to the terminal only: never through the logger, so it reaches no log file.
      process.stdout.write(
        `\n  First administrator: ${config.adminUsername}\n  Generated password:  ${admin.generatedPassword}\n` +
          `  (shown once; set ADMIN_PASSWORD to choose your own)\n\n`,
      );
    }
    const address = await app.listen({ port: config.port, host: config.host });
    app.log.info(
      { startup_ms: Math.round(performance.now() - startedAt), database: db.kind, port: config.port },
      'server started',
    );
    return {
      app,
      db,
      address,
      async close({ graceMs = config.shutdownGraceSeconds * 1000 } = {}) {
        const { cut } = await drainOf(app).drain(graceMs);
        if (cut) app.log.warn({ cut, grace_ms: graceMs }, 'shutdown grace period over: requests cut');
        // The close ends the event streams, then every connection left: none may hold the process.
        const closing = app.close();
        const stragglers = setTimeout(() => app.server.closeAllConnections(), CLOSE_CONNECTIONS_MS);
        stragglers.unref();
        await closing.finally(() => clearTimeout(stragglers));
        await db.close();
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}

const RETRY_AFTER_S = 5;
/** After the drain, connections still open this long after the app's close began are closed outright. */
const CLOSE_CONNECTIONS_MS = 2_000;
/** A close that still has not finished this long after the grace period ends the process with status 1. */
const CLOSE_TIMEOUT_MS = 15_000;

/**
 * A server starts while its PostgreSQL is down (issue 28): until the database answers, a stand-in listener
 * on the server's port answers every request 503 in the envelope with Retry-After (health checks included),
 * and the connection is retried with a backoff; then the stand-in closes and the normal start (migrations,
 * first administrator, jobs) runs. An error PostgreSQL itself answers (a missing database, a refused
 * password) still fails the start at once: waiting would not fix it.
 */
async function untilReachable(db: Db, config: Config): Promise<void> {
  if (db.kind !== 'postgres') return;
  let standIn: http.Server | null = null;
  let delay = 250;
  try {
    for (;;) {
      try {
        await db.query('SELECT 1');
        return;
      } catch (error) {
        if (!isUnreachable(error)) throw error;
      }
      if (!standIn) {
        const server = http.createServer((request, response) => {
          const locale = negotiateLocale(request.headers['accept-language']);
          response.writeHead(503, {
            'content-type': 'application/json; charset=utf-8',
            'retry-after': String(RETRY_AFTER_S),
          });
          response.end(
            JSON.stringify({ code: 503, message: translate(locale, 'errors.db_unavailable'), data: null }),
          );
        });
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(config.port, config.host, () => resolve());
        });
        standIn = server;
        process.stderr.write('Database unreachable: answering 503 and retrying until it is back\n');
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 5_000);
    }
  } finally {
    const server = standIn as http.Server | null;
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }
}

/** No server answered (refused, reset, timed out) or it is starting or shutting down (SQLSTATE 57P0x). */
function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string') return true;
  return !/^[0-9A-Z]{5}$/.test(code) || /^(08|57P0)/.test(code);
}

/**
 * Starts the server from the environment (and `.env`), and drains it on SIGTERM/SIGINT. `early` is what a
 * launcher has begun already (scripts/start.ts opens the database while this module loads).
 */
export async function main(
  startedAt = performance.now(),
  early?: { config: Config; db: Promise<Db> },
): Promise<void> {
  if (!early && fs.existsSync('.env')) process.loadEnvFile('.env');
  const config = early?.config ?? loadConfig(process.env);
  const server = await startServer(config, startedAt, early?.db);
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => process.exit(1), config.shutdownGraceSeconds * 1000 + CLOSE_TIMEOUT_MS);
    force.unref();
    let status = 0;
    try {
      await server.close();
    } catch (error) {
      status = 1;
      process.stderr.write(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exit(status);
  };
  // `on`, not `once`: a second signal (Ctrl-C reaches both npm and the server, and npm forwards it again)
  // must not kill the process half way through its drain; it is ignored while the first one runs.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  main().catch((err: unknown) => {
    process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
