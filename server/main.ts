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
 * (migrations, the first admin and pg-boss's queues are serialized or retried). `stop` aborted stops the
 * start at its next safe point (the wait for the database at once, a migration only once its transaction
 * is over), closes what it opened and rejects with `StartStopped`. Example:
 * `const server = await startServer(loadConfig(process.env)); ...; await server.close();`
 */
export async function startServer(
  config: Config,
  startedAt = performance.now(),
  opening: Promise<Db> = openDatabase(config),
  stop?: AbortSignal,
): Promise<RunningServer> {
  const db = await opening;
  let app: FastifyInstance | null = null;
  const stopIfAsked = () => {
    if (stop?.aborted) throw new StartStopped();
  };
  try {
    stopIfAsked();
    await untilReachable(db, config, stop);
    const applied = await migrate(db, undefined, stop);
    forgetAppliedTo(config, applied, MIGRATIONS_DIR);
    stopIfAsked();
    const admin = await ensureFirstAdmin(db, {
      username: config.adminUsername,
      password: config.adminPassword,
    });
    stopIfAsked();
    app = await buildApp({ db, config, startsAfterListen: true });
    if (applied.length) app.log.info({ migrations: applied }, 'migrations applied');
    if (admin.created) app.log.info({ username: config.adminUsername }, 'first administrator created');
    if (admin.generatedPassword) {
      // Printed once to the terminal only: never through the logger, so it reaches no log file.
      process.stdout.write(
        `\n  First administrator: ${config.adminUsername}\n  Generated password:  ${admin.generatedPassword}\n` +
          `  (shown once; set ADMIN_PASSWORD to choose your own)\n\n`,
      );
    }
    stopIfAsked();
    const address = await app.listen({ port: config.port, host: config.host });
    stopIfAsked();
    app.log.info(
      {
        startup_ms: Math.round(performance.now() - startedAt),
        database: db.kind,
        port: config.port,
        // PGlite: the statements of the start-up (migrations check, first administrator, LISTENs ...).
        ...(db.statements
          ? { startup_statements: db.statements.count, startup_statements_ms: Math.round(db.statements.ms) }
          : {}),
      },
      'server started',
    );
    const started = app;
    return {
      app: started,
      db,
      address,
      async close({ graceMs = config.shutdownGraceSeconds * 1000 } = {}) {
        const { cut } = await drainOf(started).drain(graceMs);
        if (cut) started.log.warn({ cut, grace_ms: graceMs }, 'shutdown grace period over: requests cut');
        // The close ends the event streams, then every connection left: none may hold the process.
        const closing = started.close();
        const stragglers = setTimeout(() => started.server.closeAllConnections(), CLOSE_CONNECTIONS_MS);
        stragglers.unref();
        await closing.finally(() => clearTimeout(stragglers));
        await db.close();
      },
    };
  } catch (error) {
    if (app) await app.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
}

/** What startServer rejects with when its `stop` signal was aborted: a requested end, not a failure. */
export class StartStopped extends Error {
  constructor() {
    super('start-up stopped on request');
    this.name = 'StartStopped';
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
async function untilReachable(db: Db, config: Config, stop?: AbortSignal): Promise<void> {
  if (db.kind !== 'postgres') return;
  let standIn: http.Server | null = null;
  let delay = 250;
  // Resolves when `stop` is aborted: a wait (a connection attempt, the backoff) ends on it at once.
  const stopped = new Promise<'stopped'>((resolve) => {
    if (stop?.aborted) resolve('stopped');
    stop?.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  try {
    for (;;) {
      try {
        const probe = db.query('SELECT 1');
        probe.catch(() => undefined); // left behind when a stop ends the wait first
        if ((await Promise.race([probe, stopped])) === 'stopped') throw new StartStopped();
        return;
      } catch (error) {
        if (error instanceof StartStopped || !isUnreachable(error)) throw error;
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
      let timer: NodeJS.Timeout | undefined;
      const slept = new Promise<'slept'>((r) => (timer = setTimeout(() => r('slept'), delay)));
      const woke = await Promise.race([slept, stopped]);
      clearTimeout(timer);
      if (woke === 'stopped') throw new StartStopped();
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
 * Starts the server from the environment (and `.env`), and drains it on SIGTERM/SIGINT. The handlers are
 * installed before the start: a signal during it (waiting for the database, answering 503 from the
 * stand-in, migrating) stops the start at its next safe point, closes what was opened and exits 0. `early`
 * is what a launcher has begun already (scripts/start.ts opens the database while this module loads).
 * Resolves to the running server once it listens.
 */
export async function main(
  startedAt = performance.now(),
  early?: { config: Config; db: Promise<Db> },
): Promise<RunningServer> {
  if (!early && fs.existsSync('.env')) process.loadEnvFile('.env');
  const config = early?.config ?? loadConfig(process.env);
  const starting = new AbortController();
  let server: RunningServer | null = null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    if (!server) {
      // startServer stops at its next safe point and rejects; the catch below exits.
      process.stderr.write(`${signal}: stopping the start-up\n`);
      const force = setTimeout(() => process.exit(1), CLOSE_TIMEOUT_MS);
      force.unref();
      starting.abort();
      return;
    }
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
  try {
    server = await startServer(config, startedAt, early?.db, starting.signal);
    return server;
  } catch (error) {
    if (!(error instanceof StartStopped)) throw error;
    process.stderr.write('Start-up stopped\n');
    process.exit(0);
  }
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  main().catch((err: unknown) => {
    process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
