/**
 * `npx tsx bench/list.ts`: the resource engine's cost, printed as figures (no assertions).
 * 1. A signed-in list call (page of 20, one filter, one include) on a 100k-row table, next to a bare Fastify
 *    route running the same SQL on the same database in the same run: requests/s, p50, p99.
 * 2. CSV export of 1M rows, read by a client in another process: rows/s and the server's peak RSS growth.
 * Runs on PGlite, then on PostgreSQL (DATABASE_URL, or a throwaway cluster started for the run).
 * Env: BENCH_SECONDS (default 5), BENCH_CONCURRENCY (8), LIST_ROWS (100000), EXPORT_ROWS (1000000), EXPORT_RUNS (3),
 * BENCH_DRIVERS (pglite,postgres).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { startPgCluster, type PgCluster } from '../scripts/lib/pgCluster.ts';
import { buildApp } from '../server/app.ts';
import { issueToken } from '../server/auth/tokens.ts';
import { ensureFirstAdmin } from '../server/bootstrap.ts';
import { loadConfig } from '../server/config.ts';
import type { Db } from '../server/db/index.ts';
import { migrate, readMigrations } from '../server/db/migrate.ts';
import { openPglite } from '../server/db/pglite.ts';
import { openPostgres } from '../server/db/postgres.ts';
import { createResourcesModule } from '../server/engine/module.ts';
import { selectColumns } from '../server/engine/records.ts';
import { modules as defaultModules } from '../server/modules/index.ts';
import { fixtureResources, gadgetMakers, gadgets } from '../tests/fixtures/gadgets.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LIST_ROWS = Number(process.env.LIST_ROWS ?? 100_000);
const EXPORT_ROWS = Number(process.env.EXPORT_ROWS ?? 1_000_000);
const EXPORT_RUNS = Number(process.env.EXPORT_RUNS ?? 3);
const DRIVERS = (process.env.BENCH_DRIVERS ?? 'pglite,postgres').split(',');
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../tests/fixtures/migrations');
const LIST_QUERY = 'search=state:1&include=maker&size=20';

/** The export's client, in a process of its own: the server's CPU and RSS are then the server's alone. */
const EXPORT_CLIENT = `
const res = await fetch(process.env.BENCH_URL, { headers: { authorization: 'Bearer ' + process.env.BENCH_TOKEN, 'accept-encoding': 'identity' } });
if (res.status !== 200) {
  console.log(JSON.stringify({ error: res.status + ' ' + (await res.text()).slice(0, 200) }));
} else {
  let bytes = 0, lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
  }
  console.log(JSON.stringify({ bytes, lines }));
}`;

const say = (line: string) => process.stdout.write(`${line}\n`);

for (const driver of DRIVERS) {
  let cluster: PgCluster | null = null;
  let pgliteDir: string | null = null;
  let db: Db;
  if (driver === 'postgres') {
    let url = process.env.DATABASE_URL;
    if (!url) {
      cluster = await startPgCluster({ log: () => {} });
      url = cluster.url;
    }
    db = await openPostgres(url, { max: 10 });
  } else {
    // On disk, as `npm start` runs it (an in-memory PGlite keeps its temp files in WASM memory too).
    pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pglite-'));
    db = await openPglite(pgliteDir);
  }
  try {
    await runOn(driver, db);
  } finally {
    await db.close();
    cluster?.destroy();
    if (pgliteDir) fs.rmSync(pgliteDir, { recursive: true, force: true });
  }
}

async function runOn(driver: string, db: Db): Promise<void> {
  say(`\n== ${driver} ==`);
  await migrate(db);
  await db.exec(
    `DROP TABLE IF EXISTS gadget_parts, gadgets_gadget_tags, gadgets, gadget_tags, gadget_makers CASCADE`,
  );
  for (const m of readMigrations(FIXTURES)) await db.exec(m.sql);
  await seed(db, 0, LIST_ROWS);
  await db.exec('ANALYZE');
  const app = await serve(db);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await adminToken(db);
  try {
    const engine = await load(`${address}/api/${gadgets.endpoint}?${LIST_QUERY}`, token);
    const bare = await load(`${address}/bench/bare`, null);
    say(`list (${LIST_ROWS} rows, ${LIST_QUERY}, ${CONCURRENCY} concurrent, ${SECONDS}s each)`);
    say(`  engine : ${fmt(engine)}`);
    say(`  bare   : ${fmt(bare)}`);
    say(`  engine / bare = ${((engine.rps / bare.rps) * 100).toFixed(0)}%   (target >= 80%)`);
    await seed(db, LIST_ROWS, EXPORT_ROWS);
    // A table as it stands once autovacuum has been by (hint bits set, statistics fresh), not mid-load.
    await db.exec('VACUUM ANALYZE gadgets');
    const runs: ExportResult[] = [];
    for (let i = 0; i < EXPORT_RUNS; i++) {
      const exp = await exportRun(`${address}/api/${gadgets.endpoint}/export`, token).catch(
        (error: Error) => {
          say(
            `export failed: ${error.message} (${String((error.cause as Error | undefined)?.message ?? '')})`,
          );
          return null;
        },
      );
      if (!exp) return;
      runs.push(exp);
      say(
        `export run ${i + 1} (${exp.rows} rows): ${rate(exp)} rows/s in ${exp.seconds.toFixed(1)}s,` +
          ` ${(exp.bytes / 1e6).toFixed(0)} MB, peak RSS growth ${(exp.rssGrowth / 1e6).toFixed(0)} MB`,
      );
    }
    const median = [...runs].sort((a, b) => rate(a) - rate(b))[Math.floor(runs.length / 2)]!;
    const rss = Math.max(...runs.map((r) => r.rssGrowth));
    say(
      `export median of ${runs.length}: ${rate(median)} rows/s, largest peak RSS growth ${(rss / 1e6).toFixed(0)} MB` +
        `   (target on PostgreSQL: >= 300000 rows/s, < 100 MB)`,
    );
  } finally {
    await app.close();
  }
}

/** Rows [from, to) of gadgets: one maker in ten, a tag on some, half of them enabled. */
async function seed(db: Db, from: number, to: number): Promise<void> {
  if (from === 0) {
    await db.query(`INSERT INTO gadget_makers (name) SELECT 'maker ' || g FROM generate_series(1, 100) g`);
    await db.query(`INSERT INTO gadget_tags (name) SELECT 'tag ' || g FROM generate_series(1, 10) g`);
  }
  for (let start = from; start < to; start += 100_000) {
    const end = Math.min(to, start + 100_000);
    await db.query(
      `INSERT INTO gadgets (name, sku, price, stock, state, color, maker_id, description)
       SELECT 'gadget ' || g, 'SKU-' || g, (g % 1000) / 10.0, g % 50, g % 2 = 0,
              (ARRAY['red','green','blue'])[1 + g % 3], 1 + g % 100, 'a plain description of gadget ' || g
         FROM generate_series($1::int, $2::int) g`,
      [start + 1, end],
    );
  }
  await db.query(
    `INSERT INTO gadgets_gadget_tags (gadget_id, tag_id) SELECT id, 1 + id % 10 FROM gadgets WHERE id > $1 AND id <= $2 AND id % 7 = 0`,
    [from, to],
  );
}

async function serve(db: Db): Promise<FastifyInstance> {
  const config = {
    ...loadConfig({ DATA_DIR: '/tmp/bench-list' }),
    // No job runner: the export streams over HTTP whatever its size (with jobs, 1M rows would answer 202).
    jobs: false,
    logToFile: false,
    distDir: '/nonexistent',
  };
  const engine = createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURES });
  const bare = {
    name: 'bare',
    register(app: FastifyInstance) {
      // The same statements the engine runs for LIST_QUERY, written by hand.
      app.get('/bench/bare', async () => {
        const cols = selectColumns(gadgets);
        const { rows } = await db.query<Record<string, unknown>>(
          `SELECT ${cols} FROM "gadgets" WHERE ("state" = $1) ORDER BY "id" DESC LIMIT 20 OFFSET 0`,
          [true],
        );
        const { rows: count } = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM (SELECT 1 FROM "gadgets" WHERE ("state" = $1) LIMIT 10001) capped`,
          [true],
        );
        const ids = rows.map((r) => String(r.id));
        const ph = ids.map((_, i) => `$${i + 1}`).join(', ');
        const { rows: links } = await db.query<{ owner: string; target: string }>(
          `SELECT "gadget_id" AS owner, "tag_id" AS target FROM "gadgets_gadget_tags" WHERE "gadget_id" IN (${ph}) ORDER BY 1, 2`,
          ids,
        );
        const makerIds = [...new Set(rows.map((r) => String(r.maker_id)))];
        const { rows: makers } = await db.query<Record<string, unknown>>(
          `SELECT ${selectColumns(gadgetMakers)} FROM "gadget_makers" WHERE "id" IN (${makerIds.map((_, i) => `$${i + 1}`).join(', ')})`,
          makerIds,
        );
        const byId = new Map(makers.map((m) => [String(m.id), m]));
        const data = rows.map((r) => ({
          ...r,
          tag_ids: links.filter((l) => String(l.owner) === String(r.id)).map((l) => String(l.target)),
          maker: byId.get(String(r.maker_id)) ?? null,
        }));
        const total = Number(count[0]!.n);
        return {
          code: 200,
          data: {
            data,
            meta: {
              pagination: {
                total,
                count: data.length,
                per_page: 20,
                current_page: 1,
                total_pages: Math.ceil(total / 20),
              },
            },
          },
        };
      });
    },
  };
  const modules = [...defaultModules.map((m) => (m.name === engine.name ? engine : m)), bare];
  const app = await buildApp({ db, config, logger: pino({ level: 'error' }), modules });
  await ensureFirstAdmin(db, { username: 'admin', password: 'bench-password-123' });
  return app;
}

async function adminToken(db: Db): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
  return (await issueToken(db, { userId: rows[0]!.id, remember: false })).accessToken;
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** A simple closed-loop load: CONCURRENCY workers calling `url` back to back for SECONDS. */
async function load(url: string, token: string | null): Promise<LoadResult> {
  // Uncompressed on both sides: the bare route has no compression, so the ratio compares the same work.
  const headers: Record<string, string> = {
    'accept-encoding': 'identity',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  for (let i = 0; i < 20; i++) await (await fetch(url, { headers })).arrayBuffer(); // warm-up
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
      latencies.push(performance.now() - t0);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? 0;
  return { rps: latencies.length / elapsed, p50: pct(50), p99: pct(99), errors };
}

async function exportRun(url: string, token: string): Promise<ExportResult> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', EXPORT_CLIENT], {
    env: { ...process.env, BENCH_URL: url, BENCH_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const result = JSON.parse(out || '{"error":"no output"}') as {
    bytes: number;
    lines: number;
    error?: string;
  };
  if (result.error) throw new Error(`export answered ${result.error}`);
  return { rows: result.lines - 1, bytes: result.bytes, seconds, rssGrowth: peak - base };
}

interface ExportResult {
  rows: number;
  bytes: number;
  seconds: number;
  rssGrowth: number;
}

function rate(r: ExportResult): number {
  return Math.round(r.rows / r.seconds);
}

function fmt(r: LoadResult): string {
  return `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms${r.errors ? `, ${r.errors} errors` : ''}`;
}
