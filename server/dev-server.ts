/**
 * The API under `npm run dev` (scripts/dev.ts starts it): one process that keeps its database open (PGlite
 * or PostgreSQL) and, when a resource or server file changes, re-imports the app's modules fresh (tsx's
 * namespaced loader: a new namespace is a new copy of every module of ours), builds a new Fastify app on the
 * same database and swaps it in behind the listening socket. The socket's handler forwards each request to
 * the current app; the old app drains (the requests it already has finish) and closes. A request never sees
 * a half-built app: until the new one is ready, the old one answers.
 *
 * What the in-process path cannot take ends this process with RESTART_EXIT_CODE and scripts/dev.ts starts a
 * fresh one (the full restart, which migrates as main.ts does): a migration or snapshot written or changed, a
 * change to the start path itself (this file, server/main.ts, server/db/, server/config.ts), package.json,
 * .env, or any error while loading or building the new app (a schema changed without its migration, a
 * syntax error). Each fallback says so on the console.
 * Example: `DATA_DIR=/tmp/x PORT=3001 npx tsx server/dev-server.ts`.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type * as AppModule from './app.ts';
import type * as DrainModule from './core/drain.ts';
import { register } from 'tsx/esm/api';
import { ensureFirstAdmin } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { RESTART_EXIT_CODE } from './dev-restart.ts';
import { openDatabase, type Db } from './db/index.ts';
import { MIGRATIONS_DIR, migrate } from './db/migrate.ts';
import { forgetAppliedTo } from './engine/schema/pending-migrations.ts';

/** Files that only a full restart takes (relative to the project root, `/`-separated). */
const FULL_RESTART = [
  /^server\/migrations\//,
  /^server\/db\//,
  /^server\/(main|dev-server|config)\.ts$/,
  /^package(-lock)?\.json$/,
  /^\.env$/,
];
/** Files an in-process reload takes. */
const RELOADS = /^(server|resources|schemas|locales)\/.*\.(ts|tsx|json)$/;
const WATCHED = ['server', 'resources', 'schemas', 'locales'];
const DEBOUNCE_MS = 80;
/** Each reload keeps its modules in memory (an ES module is never unloaded): a full restart after this many. */
const MAX_RELOADS = 40;

const say = (line: string): void => void process.stdout.write(`[dev:api] ${line}\n`);
const root = process.cwd();
if (fs.existsSync('.env')) process.loadEnvFile('.env');
const config = loadConfig(process.env);

interface Loaded {
  app: FastifyInstance;
  /** Drains `app` with the drain module of its own namespace. */
  drain: (app: FastifyInstance, graceMs: number) => Promise<unknown>;
}
let generation = 0;

/** Imports server/app.ts and its whole graph in a namespace of their own, and builds a ready app. */
async function load(db: Db): Promise<Loaded> {
  generation += 1;
  const scope = register({ namespace: `dev-${process.pid}-${generation}` });
  try {
    const parent = import.meta.url;
    const appModule = (await scope.import('./app.ts', parent)) as typeof AppModule;
    const drainModule = (await scope.import('./core/drain.ts', parent)) as typeof DrainModule;
    const app = await appModule.buildApp({ db, config });
    try {
      await app.ready();
    } catch (error) {
      await app.close().catch(() => undefined);
      throw error;
    }
    return { app, drain: (old, graceMs) => drainModule.drainOf(old).drain(graceMs) };
  } finally {
    await scope.unregister().catch(() => undefined);
  }
}

// The start is the ordinary one (open the database, migrate, first administrator), as in main.ts.
const db = await openDatabase(config);
let current: Loaded;
try {
  const applied = await migrate(db);
  forgetAppliedTo(config, applied, MIGRATIONS_DIR);
  if (applied.length) say(`migrations applied: ${applied.join(', ')}`);
  const admin = await ensureFirstAdmin(db, {
    username: config.adminUsername,
    password: config.adminPassword,
  });
  if (admin.generatedPassword) {
    process.stdout.write(
      `\n  First administrator: ${config.adminUsername}\n  Generated password:  ${admin.generatedPassword}\n` +
        `  (shown once; set ADMIN_PASSWORD to choose your own)\n\n`,
    );
  }
  current = await load(db);
} catch (error) {
  say(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
  await db.close().catch(() => undefined);
  process.exit(1);
}
const server = http.createServer((request, response) => current.app.routing(request, response));
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(config.port, config.host, () => resolve());
});
say(
  `listening on http://${config.host}:${config.port}; a change under resources/ or server/ reloads in process`,
);

let pending = new Set<string>();
let timer: NodeJS.Timeout | null = null;
let busy: Promise<void> = Promise.resolve();
let stopping = false;

/** A file changed (its path relative to the project root, `/`-separated): batched, then reloaded. */
const changed = (file: string): void => {
  if (stopping) return;
  if (!RELOADS.test(file) && !FULL_RESTART.some((re) => re.test(file))) return;
  if (/\.test\.tsx?$/.test(file) || file.endsWith('/.pending.json')) return;
  pending.add(file);
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    const files = [...pending];
    pending = new Set();
    busy = busy.then(() => reload(files));
  }, DEBOUNCE_MS);
};
// The watched folders one by one (not the root: node_modules, data/ and .git are no business of ours), and
// the root's own files (package.json, .env) without recursion.
const watchers = [
  ...WATCHED.filter((dir) => fs.existsSync(path.join(root, dir))).map((dir) =>
    fs.watch(path.join(root, dir), { recursive: true }, (_event, name) => {
      if (name) changed(`${dir}/${name.split(path.sep).join('/')}`);
    }),
  ),
  fs.watch(root, (_event, name) => {
    if (name) changed(name);
  }),
];

async function reload(files: string[]): Promise<void> {
  if (stopping) return;
  const needsRestart = files.find((file) => FULL_RESTART.some((re) => re.test(file)));
  if (needsRestart) return restart(`${needsRestart} changed`);
  if (generation > MAX_RELOADS) return restart(`${MAX_RELOADS} reloads (their modules stay in memory)`);
  const startedAt = performance.now();
  let next: Loaded;
  try {
    next = await load(db);
  } catch (error) {
    return restart(`reloading failed (${error instanceof Error ? error.message : String(error)})`);
  }
  const old = current;
  current = next;
  say(`reloaded in ${Math.round(performance.now() - startedAt)} ms: ${files.join(', ')}`);
  await old.drain(old.app, config.shutdownGraceSeconds * 1000).catch(() => undefined);
  await old.app.close().catch(() => undefined);
}

async function restart(reason: string): Promise<void> {
  say(`${reason}: full restart`);
  await shutdown(RESTART_EXIT_CODE);
}

async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  for (const watcher of watchers) watcher.close();
  const force = setTimeout(() => process.exit(code || 1), config.shutdownGraceSeconds * 1000 + 15_000);
  force.unref();
  server.close();
  server.closeIdleConnections();
  await current.drain(current.app, config.shutdownGraceSeconds * 1000).catch(() => undefined);
  await current.app.close().catch(() => undefined);
  server.closeAllConnections();
  await db.close().catch(() => undefined);
  process.exit(code);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void shutdown(0));
