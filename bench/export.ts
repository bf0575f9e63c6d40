/**
 * `npx tsx bench/export.ts`: CSV export speed on PostgreSQL (issue 14, item 5), printed as figures (no
 * assertions). Seeds EXPORT_ROWS users (and EXPORT_STAFF staff members with a department and two roles each,
 * so representations are resolved by joins) into a throwaway cluster (or DATABASE_URL), then, in interleaved
 * rounds within one run:
 * - the product: `GET v1/user/<users|staff>/export` over HTTP, read by a client in another process;
 * - `psql \copy` of the same table's raw columns (no labels, UTC times): the floor;
 * - `psql \copy` of the product's own SELECT (labels, representations, site time zone): what formatting costs.
 * Prints rows/s for each, the product / `\copy` ratio (target: >= 300k rows/s or within 1.3x), and the
 * server's peak RSS growth during the product's export (memory must stay flat).
 * Then the same export as .xlsx (`format=xlsx`) each round: rows/s, RSS and VmHWM before and after, next to CSV's.
 * The whole-path rounds (issue 37) also print the CPU seconds each path costs this machine on both sides (the
 * bench's process with the server and its clients, and PostgreSQL, read from /proc), and from them the shortest
 * time the whole path can take on this machine's cores.
 * Env: EXPORT_ROWS (default 1000000), EXPORT_STAFF (200000), EXPORT_RUNS (3), EXPORT_CLASSIC, EXPORT_REPEAT,
 * EXPORT_PARTS, EXPORT_PART_ROWS (below), DATABASE_URL.
 */
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { ensureFirstAdmin } from '../server/bootstrap.ts';
import { loadPrincipal } from '../server/engine/accounts.ts';
import { migrate } from '../server/db/migrate.ts';
import { exportQuery } from '../server/engine/csv/format.ts';
import { planExport } from '../server/engine/csv/export.ts';
import { langOf } from '../server/engine/labels.ts';
import { resources } from '../resources/index.ts';
import { readEvents } from '../src/events/eventStream.ts';
import type { Db } from '../server/db/index.ts';
import type { Config } from '../server/config.ts';
import { adminToken, openBenchDb, serveBench } from './lib/db.ts';
import { cpuReader, httpExport, inlineForPsql, psqlCopy, vmHwm, vmRss, type CpuSpent } from './lib/export.ts';
import { median } from './lib/stats.ts';

const ROWS = Number(process.env.EXPORT_ROWS ?? 1_000_000);
const STAFF = Number(process.env.EXPORT_STAFF ?? 200_000);
const RUNS = Number(process.env.EXPORT_RUNS ?? 3);
/** EXPORT_CLASSIC=0 runs only the whole path and the ten-export memory (issue 37), not the per-resource rounds. */
const CLASSIC = process.env.EXPORT_CLASSIC !== '0';
/** Ten consecutive exports on each path for the memory figures (EXPORT_REPEAT). */
const REPEAT = Number(process.env.EXPORT_REPEAT ?? 10);
/** What Chromium sends with a download. */
const BROWSER_ENCODING = 'gzip, deflate, br';
/**
 * The export job's COPY parts (CSV_EXPORT_PARTS; default 1, the product's default) and from how many rows
 * (CSV_EXPORT_PART_ROWS). With EXPORT_PARTS above 1 each round also runs the path in one part.
 */
const PARTS = Number(process.env.EXPORT_PARTS ?? 1);
const PART_ROWS = Number(process.env.EXPORT_PART_ROWS ?? 200_000);

const say = (line: string) => process.stdout.write(`${line}\n`);
const byName = (name: string) => resources.find((r) => r.name === name)!;

const bench = await openBenchDb('postgres');
const { db } = bench;
const url = bench.url!;
/** Ends the run early (EXPORT_CLASSIC=0). */
class Done extends Error {}

let app: FastifyInstance | null = null;
let jobsApp: FastifyInstance | null = null;
let jobsConfig: Config | null = null;
try {
  await migrate(db);
  await ensureFirstAdmin(db, { username: 'admin', password: 'bench-password-123' });
  say(`seeding ${ROWS} users and ${STAFF} staff members...`);
  await seed(db);
  await db.exec('VACUUM ANALYZE');
  app = await serveBench(db, { dataDir: '/tmp/bench-export' });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await adminToken(db);
  const { rows: ids } = await db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
  const admin = await loadPrincipal(db, { userId: ids[0]!.id, tokenId: '0' });
  // Issue 37 item 1: the user's whole path on a server that runs jobs (the request, the job when above
  // CSV_JOB_ROWS, its end heard on the live events stream as the export button hears it, the download as a browser asks for it,
  // decoded by the client), against `psql \copy` of the same columns' raw values, interleaved.
  jobsApp = await serveBench(db, {
    dataDir: '/tmp/bench-export-jobs',
    jobs: true,
    config: { csvExportParts: PARTS, csvExportPartRows: PART_ROWS },
    onConfig: (config) => (jobsConfig = config),
  });
  const jobsAddress = await jobsApp.listen({ port: 0, host: '127.0.0.1' });
  /** The same path with the COPY in one part (not when EXPORT_PARTS=1): the parted COPY's gain, same run. */
  const onePart = async () => {
    jobsConfig!.csvExportParts = 1;
    try {
      return await wholePath(jobsAddress, byName('users').endpoint, token);
    } finally {
      jobsConfig!.csvExportParts = PARTS;
    }
  };
  {
    const users = byName('users');
    const plan = await planExport(db, users, {}, { registry: resources, principal: admin });
    const raw = `SELECT ${plan.columns.map((c) => `"${c}"`).join(', ')} FROM "${users.table}"`;
    // The fair floor for the formatted file (issue 37, third round): `\copy` of the product's own SELECT.
    const own = await exportQuery(db, langOf('zh-CN'), users, plan, resources);
    const formatted = inlineForPsql(own.sql, own.params, own.settings);
    say(
      `\n== whole path, users (${ROWS + 1} rows), COPY in ${PARTS} parts from ${PART_ROWS} rows, load ${load()} ==`,
    );
    const path: number[] = [];
    const copy: number[] = [];
    const ratios: number[] = [];
    const selects: number[] = [];
    const selectRatios: number[] = [];
    const singles: number[] = [];
    // The CPU each path costs this machine, both sides (issue 37, tenth round): the whole path's work divided
    // by the cores is the shortest it can take here, however well its steps overlap.
    const { rows: backend } = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const readCpu = cpuReader(Number(backend[0]!.pid));
    const cpu = {
      path: [] as CpuSpent[],
      copy: [] as CpuSpent[],
      select: [] as CpuSpent[],
      /** The whole path's server side alone: what is left without the download client (a browser elsewhere). */
      server: [] as number[],
    };
    const spent = async <T>(into: CpuSpent[], run: () => Promise<T>): Promise<T> => {
      // A second's pause first, so that what the step before left running in the background (a job's last
      // writes, autovacuum) is not counted for this one.
      if (readCpu) await new Promise((resolve) => setTimeout(resolve, 1000));
      const before = readCpu?.();
      const result = await run();
      // And one after: a backend that has just ended is in neither the live processes nor the postmaster's
      // cutime until the postmaster has reaped it (measured: ~2 s of a COPY's CPU missing when read at once).
      if (readCpu) await new Promise((resolve) => setTimeout(resolve, 1000));
      const after = readCpu?.();
      if (before && after)
        into.push({ bench: after.bench - before.bench, postgres: after.postgres - before.postgres });
      return result;
    };
    for (let round = 1; round <= RUNS; round++) {
      const p = await spent(cpu.path, () => wholePath(jobsAddress, users.endpoint, token));
      if (PARTS > 1) {
        const s = await onePart();
        singles.push(s.rows / s.seconds / (p.rows / p.seconds));
        say(
          `round ${round}: one-part COPY whole path ${fmtRate(s.rows / s.seconds)} (${s.seconds.toFixed(2)} s); one part / parted ${(s.rows / s.seconds / (p.rows / p.seconds)).toFixed(2)}x; load ${load()}`,
        );
      }
      const spentOnPath = cpu.path.at(-1);
      if (spentOnPath && p.clientCpu !== null) cpu.server.push(cpuTotal(spentOnPath) - p.clientCpu);
      const c = await spent(cpu.copy, () => psqlCopy(url, raw));
      const f = await spent(cpu.select, () => psqlCopy(url, formatted));
      path.push(p.rows / p.seconds);
      copy.push(c.rows / c.seconds);
      selects.push(f.rows / f.seconds);
      ratios.push(p.rows / p.seconds / (c.rows / c.seconds));
      selectRatios.push(p.rows / p.seconds / (f.rows / f.seconds));
      say(
        `round ${round}: whole path ${fmtRate(p.rows / p.seconds)} (${p.rows} rows, ${p.how}, ${(p.bytes / 1e6).toFixed(0)} MB of CSV decoded, ${p.seconds.toFixed(2)} s)` +
          `, \\copy raw ${fmtRate(c.rows / c.seconds)} (${c.seconds.toFixed(2)} s), \\copy product SELECT ${fmtRate(f.rows / f.seconds)} (${f.seconds.toFixed(2)} s);` +
          ` ratio ${(p.rows / p.seconds / (c.rows / c.seconds)).toFixed(2)}x raw, ${(p.rows / p.seconds / (f.rows / f.seconds)).toFixed(2)}x own SELECT; load ${load()}`,
      );
      if (readCpu)
        say(
          `  CPU seconds (the bench's process with the server, the client or psql / PostgreSQL): whole path ${cpuLine(cpu.path.at(-1)!)}` +
            `${p.clientCpu !== null ? `, of which the client ${p.clientCpu.toFixed(2)} s` : ''}, \\copy raw ${cpuLine(cpu.copy.at(-1)!)}, \\copy product SELECT ${cpuLine(cpu.select.at(-1)!)}`,
        );
    }
    say(
      `median: whole path ${fmtRate(median(path))}, \\copy raw ${fmtRate(median(copy))}, \\copy product SELECT ${fmtRate(median(selects))};` +
        ` whole path / \\copy raw rows/s = ${median(ratios).toFixed(2)}x (target >= 0.8x), / \\copy product SELECT = ${median(selectRatios).toFixed(2)}x;` +
        ` product SELECT / raw = ${(median(selects) / median(copy)).toFixed(2)}x`,
    );
    if (singles.length) say(`median one-part / parted whole path rows/s = ${median(singles).toFixed(2)}x`);
    if (readCpu) {
      // The whole path's CPU seconds spread perfectly over every core: no overlap of its steps can beat it.
      const cores = os.availableParallelism();
      const total = (spentBy: CpuSpent[]) => median(spentBy.map(cpuTotal));
      const floorSeconds = total(cpu.path) / cores;
      const targetSeconds = (ROWS + 1) / (0.8 * median(copy));
      say(
        `CPU per export (median, PostgreSQL + server + client): whole path ${total(cpu.path).toFixed(2)} s, \\copy raw ${total(cpu.copy).toFixed(2)} s, \\copy product SELECT ${total(cpu.select).toFixed(2)} s;` +
          ` on ${cores} cores the whole path takes at least ${floorSeconds.toFixed(2)} s (${fmtRate((ROWS + 1) / floorSeconds)}, ${((ROWS + 1) / floorSeconds / median(copy)).toFixed(2)}x \\copy raw);` +
          ` the 0.8x target needs ${targetSeconds.toFixed(2)} s`,
      );
      if (cpu.server.length) {
        const serverFloor = median(cpu.server) / cores;
        say(
          `  without the client (a browser on another machine): the server side ${median(cpu.server).toFixed(2)} s of CPU, at least ${serverFloor.toFixed(2)} s on ${cores} cores (${((ROWS + 1) / serverFloor / median(copy)).toFixed(2)}x \\copy raw)`,
        );
      }
    }
    say(`\n== ${REPEAT} consecutive exports, server process memory (VmRSS, VmHWM of /proc/self/status) ==`);
    for (const [label, run] of [
      ['job + download', () => wholePath(jobsAddress, users.endpoint, token)],
      [
        'streamed (JOBS=0)',
        async () => {
          const r = await httpExport(`${address}/api/${users.endpoint}/export`, token, {
            lang: 'zh-CN',
            encoding: BROWSER_ENCODING,
          });
          return { ...r, how: 'streamed' };
        },
      ],
    ] as const) {
      global.gc?.();
      const start = { rss: vmRss(), hwm: vmHwm() };
      say(`${label}: before RSS ${mb(start.rss)}, VmHWM ${mb(start.hwm)}`);
      for (let i = 1; i <= REPEAT; i++) {
        const r = await run();
        global.gc?.();
        say(
          `  ${label} ${i}: ${fmtRate(r.rows / r.seconds)}, RSS ${mb(vmRss())}, VmHWM ${mb(vmHwm())}, load ${load()}`,
        );
      }
      say(`${label}: RSS ${mb(start.rss)} -> ${mb(vmRss())}, VmHWM ${mb(start.hwm)} -> ${mb(vmHwm())}`);
    }
  }
  if (!CLASSIC) throw new Done();

  for (const resource of [byName('users'), byName('staff')]) {
    const rows = Number(
      (await db.query<{ n: string }>(`SELECT count(*) AS n FROM "${resource.table}"`)).rows[0]!.n,
    );
    const plan = await planExport(db, resource, {}, { registry: resources, principal: admin });
    const product = await exportQuery(db, langOf('zh-CN'), resource, plan, resources);
    const formatted = inlineForPsql(product.sql, product.params, product.settings);
    const raw = `SELECT ${plan.columns
      .filter((c) => resource.fields.find((f) => f.name === c)?.meta.relation?.kind !== 'manyToMany')
      .map((c) => `"${c}"`)
      .join(', ')} FROM "${resource.table}"`;
    say(`\n== ${resource.name}: ${rows} rows, columns ${plan.columns.join(', ')} ==`);
    const results: Record<string, { rate: number[]; rss: number[] }> = {
      product: { rate: [], rss: [] },
      'product xlsx': { rate: [], rss: [] },
      'psql \\copy raw columns': { rate: [], rss: [] },
      'psql \\copy product SELECT': { rate: [], rss: [] },
    };
    for (let round = 1; round <= RUNS; round++) {
      const exp = await httpExport(`${address}/api/${resource.endpoint}/export`, token, { lang: 'zh-CN' });
      results.product!.rate.push(exp.rows / exp.seconds);
      results.product!.rss.push(exp.rssGrowth);
      say(`  csv:  ${memoryLine(exp.memory)}`);
      // The same rows as typed cells in an .xlsx (csv/xlsx-export.ts): its zip has no lines to count.
      const xlsx = await httpExport(`${address}/api/${resource.endpoint}/export?format=xlsx`, token, {
        lang: 'zh-CN',
      });
      results['product xlsx']!.rate.push(rows / xlsx.seconds);
      results['product xlsx']!.rss.push(xlsx.rssGrowth);
      say(
        `  xlsx: ${fmtRate(rows / xlsx.seconds)} (${(xlsx.bytes / 1e6).toFixed(0)} MB, RSS +${mb(xlsx.rssGrowth)}) ${memoryLine(xlsx.memory)}`,
      );
      const bare = await psqlCopy(url, raw);
      results['psql \\copy raw columns']!.rate.push(bare.rows / bare.seconds);
      const same = await psqlCopy(url, formatted);
      results['psql \\copy product SELECT']!.rate.push(same.rows / same.seconds);
      say(
        `round ${round}: product ${fmtRate(exp.rows / exp.seconds)} (${exp.rows} rows, RSS +${mb(exp.rssGrowth)}),` +
          ` \\copy raw ${fmtRate(bare.rows / bare.seconds)}, \\copy product SELECT ${fmtRate(same.rows / same.seconds)}`,
      );
    }
    const p = median(results.product!.rate);
    const c = median(results['psql \\copy raw columns']!.rate);
    const s = median(results['psql \\copy product SELECT']!.rate);
    const x = median(results['product xlsx']!.rate);
    say(
      `xlsx median ${fmtRate(x)} = ${(p / x).toFixed(2)}x slower than csv; largest RSS growth xlsx ${mb(Math.max(...results['product xlsx']!.rss))} vs csv ${mb(Math.max(...results.product!.rss))}`,
    );
    say(`median: product ${fmtRate(p)}, \\copy raw ${fmtRate(c)}, \\copy product SELECT ${fmtRate(s)}`);
    say(
      `product / \\copy raw = ${(c / p).toFixed(2)}x slower; product / \\copy of its SELECT = ${(s / p).toFixed(2)}x;` +
        ` largest RSS growth ${mb(Math.max(...results.product!.rss))}` +
        `   (target: >= 300000 rows/s or within 1.3x of \\copy; memory flat)`,
    );
  }
} catch (error) {
  if (!(error instanceof Done)) throw error;
} finally {
  await jobsApp?.close();
  await app?.close();
  await bench.close();
}

function cpuTotal(spent: CpuSpent): number {
  return spent.bench + spent.postgres;
}

function cpuLine(spent: CpuSpent): string {
  return `${cpuTotal(spent).toFixed(2)} s (${spent.bench.toFixed(2)} / ${spent.postgres.toFixed(2)})`;
}

function load(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
}

/**
 * One export as a user gets it: `GET .../export`; for a 202, the job's end heard as the export button hears
 * it (src/engine/csv/csvJobs.ts: a `job` event for this id on the live events stream, opened before the
 * export as the signed-in page has it open, then the job's status once; the status polled every 2 s as the
 * fallback); the file downloaded with a browser's Accept-Encoding and decoded by the client (a process of
 * its own, counting lines). Times the whole of it.
 */
async function wholePath(
  address: string,
  endpoint: string,
  token: string,
): Promise<{ rows: number; seconds: number; bytes: number; how: string; clientCpu: number | null }> {
  const headers = { authorization: `Bearer ${token}`, 'accept-language': 'zh-CN' };
  const live = new AbortController();
  const ended = new Set<string>();
  let heard: (() => void) | null = null;
  const events = await fetch(`${address}/api/v1/events`, {
    headers: { ...headers, accept: 'text/event-stream' },
    signal: live.signal,
  });
  if (!events.ok || !events.body) throw new Error(`events answered ${events.status}`);
  readEvents(events.body, (event) => {
    const data = event.data as { id?: string; state?: string } | null;
    if (event.type !== 'job' || !data?.id || data.state === 'active') return;
    ended.add(String(data.id));
    heard?.();
  }).catch(() => undefined);
  try {
    const t0 = performance.now();
    const res = await fetch(`${address}/api/${endpoint}/export`, {
      headers: { ...headers, 'accept-encoding': BROWSER_ENCODING },
    });
    if (res.status === 200) {
      // Below CSV_JOB_ROWS: the CSV itself (read here; small).
      const text = await res.text();
      return {
        rows: text.split('\n').length - 2,
        seconds: (performance.now() - t0) / 1000,
        bytes: text.length,
        how: 'streamed',
        clientCpu: null,
      };
    }
    if (res.status !== 202) throw new Error(`export answered ${res.status}`);
    const id = String(((await res.json()) as { data: { job_id: string } }).data.job_id);
    for (;;) {
      const status = await fetch(`${address}/api/${endpoint}/export/${id}`, { headers });
      const job = ((await status.json()) as { data: { state: string; error: string | null } }).data;
      if (job.state === 'completed') break;
      if (job.state === 'failed' || job.state === 'cancelled') throw new Error(`export job ${job.state}`);
      if (!ended.has(id))
        await new Promise<void>((resolve) => {
          const fallback = setTimeout(resolve, 2000);
          heard = () => {
            if (!ended.has(id)) return;
            clearTimeout(fallback);
            resolve();
          };
        });
      heard = null;
    }
    const download = await httpExport(`${address}/api/${endpoint}/export/${id}/download`, token, {
      lang: 'zh-CN',
      encoding: BROWSER_ENCODING,
    });
    return {
      rows: download.rows,
      seconds: (performance.now() - t0) / 1000,
      bytes: download.bytes,
      how: 'job',
      clientCpu: download.clientCpu,
    };
  } finally {
    live.abort();
  }
}

/** `ROWS` users, `STAFF` staff members in 50 departments with 2 of 20 roles each. */
async function seed(db: Db): Promise<void> {
  for (let start = 0; start < ROWS; start += 100_000) {
    const end = Math.min(ROWS, start + 100_000);
    await db.query(
      `INSERT INTO users (username, name, email, phone, state, last_login_at)
       SELECT 'user' || g, 'User ' || g, 'user' || g || '@example.com', '1' || lpad(g::text, 10, '0'), g % 5 <> 0,
              CASE WHEN g % 3 = 0 THEN now() - g * interval '1 second' END
         FROM generate_series($1::int, $2::int) g`,
      [start + 1, end],
    );
  }
  await db.query(
    `INSERT INTO departments (name, parent_id, sort) SELECT 'Department ' || g, 0, g FROM generate_series(1, 50) g`,
  );
  await db.query(
    `INSERT INTO roles (name, sort) SELECT 'Role ' || g, g FROM generate_series(1, 20) g ON CONFLICT DO NOTHING`,
  );
  const { rows: depts } = await db.query<{ min: string }>(`SELECT min(id) AS min FROM departments`);
  const { rows: roles } = await db.query<{ min: string }>(`SELECT min(id) AS min FROM roles`);
  for (let start = 0; start < STAFF; start += 100_000) {
    const end = Math.min(STAFF, start + 100_000);
    await db.query(
      `INSERT INTO staff (name, gender, phone, email, department_id, state, is_admin)
       SELECT 'Staff ' || g, (ARRAY['male','female','unknown'])[1 + g % 3], '1' || lpad(g::text, 10, '0'),
              'staff' || g || '@example.com', $3::bigint + g % 50, g % 4 <> 0, (g % 100 = 0)::int
         FROM generate_series($1::int, $2::int) g`,
      [start + 1, end, depts[0]!.min],
    );
  }
  await db.query(
    `INSERT INTO staff_roles (staff_id, role_id)
     SELECT s.id, $1::bigint + r FROM staff s, LATERAL (VALUES (s.id % 20), ((s.id + 7) % 20)) v(r)
     ON CONFLICT DO NOTHING`,
    [roles[0]!.min],
  );
}

function fmtRate(r: number): string {
  return `${Math.round(r / 1000)}k rows/s`;
}

function memoryLine(m: { rssBefore: number; rssAfter: number; hwmBefore: number; hwmAfter: number }): string {
  return `RSS ${mb(m.rssBefore)} -> ${mb(m.rssAfter)}, VmHWM ${mb(m.hwmBefore)} -> ${mb(m.hwmAfter)}`;
}

function mb(b: number): string {
  return `${(b / 1e6).toFixed(0)} MB`;
}
