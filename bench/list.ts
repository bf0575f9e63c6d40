/**
 * `npx tsx bench/list.ts`: the resource engine's cost, printed as figures (no assertions).
 * 1. A signed-in list call (page of 20, one filter, one include) on a 100k-row table, next to a bare Fastify
 *    route running the same SQL on the same database in the same run: requests/s, p50, p99. Both are warmed
 *    up first, then measured in alternating rounds, so neither pays the other's warm-up or a load swing.
 *    Besides the rates, the CPU time each request cost this process (server and client) and, on a local
 *    PostgreSQL, its backends: figures a busy machine distorts less than requests/s.
 * 2. CSV export of 1M rows, read by a client in another process: rows/s and the server's peak RSS growth;
 *    on PostgreSQL each round also times `psql \copy` of the export's own SELECT (the floor, same run).
 * Runs on PGlite, then on PostgreSQL (DATABASE_URL, or a throwaway cluster started for the run).
 * Env: BENCH_SECONDS (default 5, per round and side), BENCH_ROUNDS (3), BENCH_CONCURRENCY (8), LIST_ROWS (100000),
 * EXPORT_ROWS (1000000), EXPORT_RUNS (3), BENCH_DRIVERS (pglite,postgres).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { ensureFirstAdmin } from '../server/bootstrap.ts';
import { loadPrincipal } from '../server/engine/accounts.ts';
import type { Db } from '../server/db/index.ts';
import { migrate, readMigrations } from '../server/db/migrate.ts';
import { exportQuery } from '../server/engine/csv/format.ts';
import { planExport } from '../server/engine/csv/export.ts';
import { langOf } from '../server/engine/labels.ts';
import { createResourcesModule } from '../server/engine/module.ts';
import { selectColumns } from '../server/engine/list/records.ts';
import { modules as defaultModules } from '../server/modules/index.ts';
import { fixtureResources, gadgetMakers, gadgets } from '../tests/fixtures/gadgets.ts';
import { adminToken, openBenchDb, serveBench } from './lib/db.ts';
import { httpExport, inlineForPsql, psqlCopy, type HttpExportResult } from './lib/export.ts';
import { pct } from './lib/stats.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = 2;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LIST_ROWS = Number(process.env.LIST_ROWS ?? 100_000);
const EXPORT_ROWS = Number(process.env.EXPORT_ROWS ?? 1_000_000);
const EXPORT_RUNS = Number(process.env.EXPORT_RUNS ?? 3);
const DRIVERS = (process.env.BENCH_DRIVERS ?? 'pglite,postgres').split(',');
const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../tests/fixtures/migrations');
const LIST_QUERY = 'search=state:1&include=maker&size=20';

const say = (line: string) => process.stdout.write(`${line}\n`);

for (const driver of DRIVERS) {
  const bench = await openBenchDb(driver, 'bench-pglite-');
  try {
    await runOn(driver, bench.db, bench.url);
  } finally {
    await bench.close();
  }
}

async function runOn(driver: string, db: Db, url: string | null): Promise<void> {
  say(`\n== ${driver} ==`);
  await migrate(db);
  await db.exec(
    `DROP TABLE IF EXISTS gadget_parts, gadgets_gadget_tags, gadgets, gadget_tags, gadget_makers CASCADE`,
  );
  for (const m of readMigrations(FIXTURES)) await db.exec(m.sql);
  await seed(db, 0, LIST_ROWS);
  // As the table stands once autovacuum has been by (hint bits set, statistics fresh), not mid-load: the
  // first reader of fresh rows would otherwise pay for setting their hint bits.
  await db.exec('VACUUM ANALYZE');
  const app = await serve(db);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await adminToken(db);
  try {
    const engineUrl = `${address}/api/${gadgets.endpoint}?${LIST_QUERY}`;
    const bareUrl = `${address}/bench/bare`;
    await load(db, engineUrl, token, WARM_UP_SECONDS);
    await load(db, bareUrl, null, WARM_UP_SECONDS);
    const engine: LoadResult[] = [];
    const bare: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      engine.push(await load(db, engineUrl, token));
      bare.push(await load(db, bareUrl, null));
    }
    say(
      `list (${LIST_ROWS} rows, ${LIST_QUERY}, ${CONCURRENCY} concurrent, ${ROUNDS} alternating rounds of` +
        ` ${SECONDS}s each; load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    const e = merged(engine);
    const b = merged(bare);
    say(`  engine : ${fmt(e)}   (rounds: ${engine.map((r) => r.rps.toFixed(0)).join(', ')} req/s)`);
    say(`  bare   : ${fmt(b)}   (rounds: ${bare.map((r) => r.rps.toFixed(0)).join(', ')} req/s)`);
    say(`  engine / bare = ${((e.rps / b.rps) * 100).toFixed(0)}%   (target >= 80%)`);
    const cpuOf = (r: LoadResult) => r.cpu.node + (r.cpu.db ?? 0);
    say(`  bare CPU / engine CPU per request = ${((cpuOf(b) / cpuOf(e)) * 100).toFixed(0)}%`);
    await seed(db, LIST_ROWS, EXPORT_ROWS);
    // A table as it stands once autovacuum has been by (hint bits set, statistics fresh), not mid-load.
    await db.exec('VACUUM ANALYZE gadgets');
    const runs: HttpExportResult[] = [];
    // On PostgreSQL, each round also runs `psql \copy` of the export's own SELECT (same labels, settings and
    // bytes): the floor the HTTP path is compared with in the same run.
    const copies: number[] = [];
    const select = url ? await exportSelect(db) : null;
    for (let i = 0; i < EXPORT_RUNS; i++) {
      const exp = await httpExport(`${address}/api/${gadgets.endpoint}/export`, token).catch(
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
      if (url && select) {
        const copy = await psqlCopy(url, select);
        copies.push(copy.rows / copy.seconds);
        say(
          `  psql \\copy of the export's SELECT: ${Math.round(copy.rows / copy.seconds)} rows/s   (load ${loadavg()})`,
        );
      }
    }
    const median = [...runs].sort((a, b) => rate(a) - rate(b))[Math.floor(runs.length / 2)]!;
    const rss = Math.max(...runs.map((r) => r.rssGrowth));
    say(
      `export median of ${runs.length}: ${rate(median)} rows/s, largest peak RSS growth ${(rss / 1e6).toFixed(0)} MB` +
        `   (target on PostgreSQL: >= 300000 rows/s, < 100 MB)`,
    );
    if (copies.length > 0) {
      const copy = [...copies].sort((a, b) => a - b)[Math.floor(copies.length / 2)]!;
      say(
        `psql \\copy median ${Math.round(copy)} rows/s; \\copy / export = ${(copy / rate(median)).toFixed(2)}x` +
          `   (target: within 1.3x)`,
      );
    }
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
  const app = await serveBench(db, { dataDir: '/tmp/bench-list', modules });
  await ensureFirstAdmin(db, { username: 'admin', password: 'bench-password-123' });
  return app;
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  latencies: number[];
  seconds: number;
  /** CPU milliseconds of this process, and of the database's backends (null when unknown), per request. */
  cpu: { node: number; db: number | null };
}

/** Several rounds as one: requests/s over their whole time, percentiles over all their requests. */
function merged(rounds: readonly LoadResult[]): LoadResult {
  const latencies = rounds.flatMap((r) => r.latencies);
  const seconds = rounds.reduce((sum, r) => sum + r.seconds, 0);
  const perRequest = (of: (r: LoadResult) => number) =>
    rounds.reduce((sum, r) => sum + of(r) * r.latencies.length, 0) / latencies.length;
  const hasDb = rounds.every((r) => r.cpu.db !== null);
  return {
    cpu: { node: perRequest((r) => r.cpu.node), db: hasDb ? perRequest((r) => r.cpu.db!) : null },
    rps: latencies.length / seconds,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    latencies,
    seconds,
  };
}

/** A simple closed-loop load: CONCURRENCY workers calling `url` back to back for `seconds`. */
async function load(db: Db, url: string, token: string | null, seconds = SECONDS): Promise<LoadResult> {
  // Uncompressed on both sides: the bare route has no compression, so the ratio compares the same work.
  const headers: Record<string, string> = {
    'accept-encoding': 'identity',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + seconds * 1000;
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
  const nodeBefore = process.cpuUsage();
  const dbBefore = await backendsCpu(db);
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const nodeUsed = process.cpuUsage(nodeBefore);
  const dbAfter = await backendsCpu(db);
  const n = Math.max(1, latencies.length);
  return {
    cpu: {
      node: (nodeUsed.user + nodeUsed.system) / 1000 / n,
      db: dbBefore === null || dbAfter === null ? null : (dbAfter - dbBefore) / n,
    },
    rps: latencies.length / elapsed,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    errors,
    latencies,
    seconds: elapsed,
  };
}

/**
 * CPU milliseconds used so far by the backends of a PostgreSQL on this machine (from /proc, in clock ticks
 * of 10 ms); null on PGlite (in this process) or when they cannot be read. Backends that end in between are
 * missed: the pool keeps its connections while the load runs.
 */
async function backendsCpu(db: Db): Promise<number | null> {
  if (db.kind !== 'postgres') return null;
  try {
    const { rows } = await db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    let ticks = 0;
    for (const { pid } of rows) {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks * 10;
  } catch {
    return null;
  }
}

function rate(r: HttpExportResult): number {
  return Math.round(r.rows / r.seconds);
}

function fmt(r: LoadResult): string {
  const cpu = `CPU/request ${r.cpu.node.toFixed(2)} ms here${r.cpu.db === null ? '' : ` + ${r.cpu.db.toFixed(2)} ms in PostgreSQL`}`;
  return `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${cpu}${r.errors ? `, ${r.errors} errors` : ''}`;
}

/** The SELECT the export of gadgets runs (as the administrator, in zh-CN), ready for psql. */
async function exportSelect(db: Db): Promise<string> {
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
  const admin = await loadPrincipal(db, { userId: rows[0]!.id, tokenId: '0' });
  const plan = await planExport(db, gadgets, {}, { registry: fixtureResources, principal: admin });
  const query = await exportQuery(db, langOf('zh-CN'), gadgets, plan, fixtureResources);
  return inlineForPsql(query.sql, query.params);
}

function loadavg(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}
