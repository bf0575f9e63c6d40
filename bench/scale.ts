/**
 * `npx tsx bench/scale.ts`: list calls on a big `users` table, each next to the same SQL run bare, printed as
 * figures (no assertions). Seeds SCALE_ROWS users (default 1,000,000, plus the administrator) into a
 * throwaway PostgreSQL 15 cluster (or DATABASE_URL) with generate_series, and SCALE_PGLITE_ROWS (100,000)
 * into an on-disk PGlite. For every case the engine call (signed in, over HTTP) and its bare SQL run in
 * alternating rounds (SCALE_ROUNDS, default 15): p50 and p95 of each and the ratio of the p50s.
 * "Bare" is what a plain route would run for the same answer: the page with LIMIT/OFFSET and count(*) of
 * the filter. Cases: first page, page 2 (by number and by cursor), a deep page, the last page, every
 * sortable field, a selective and an unselective `like`, an `=` filter, filter + sort; then one CSV export
 * of the whole table next to `COPY ... TO STDOUT` of the same columns.
 * The deep page by number is asked for again and again (its first visit walks, the later ones start from
 * the positions it left, server/engine/list/anchors.ts), then its next page, then the same page right after a
 * write to the table (an UPDATE of no row, untimed, before each round), which forgets those positions: that
 * row is the cold figure, the first visit of a deep page. Then the deep page sorted by a nullable field
 * (`last_login_at`, descending), asked for again and again too.
 * Env: SCALE_ROWS, SCALE_PGLITE_ROWS, SCALE_ROUNDS, SCALE_DRIVERS (postgres,pglite), DATABASE_URL.
 */
import type { Db } from '../server/db/index.ts';
import { ensureFirstAdmin } from '../server/bootstrap.ts';
import { migrate } from '../server/db/migrate.ts';
import { selectColumns } from '../server/engine/list/records.ts';
import { users } from '../resources/users.ts';
import { adminToken, openBenchDb, serveBench } from './lib/db.ts';
import { httpExport } from './lib/export.ts';
import { pct } from './lib/stats.ts';

const ROWS = Number(process.env.SCALE_ROWS ?? 1_000_000);
const PGLITE_ROWS = Number(process.env.SCALE_PGLITE_ROWS ?? 100_000);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 15);
const DRIVERS = (process.env.SCALE_DRIVERS ?? 'postgres,pglite').split(',');
const SIZE = 15;
const say = (line: string) => process.stdout.write(`${line}\n`);

for (const driver of DRIVERS) {
  const bench = await openBenchDb(driver, 'bench-scale-');
  try {
    await runOn(driver, bench.db, driver === 'postgres' ? ROWS : PGLITE_ROWS);
  } finally {
    await bench.close();
  }
}

async function runOn(driver: string, db: Db, rows: number): Promise<void> {
  say(`\n== ${driver}: ${rows + 1} users rows, ${ROUNDS} alternating rounds per case, page size ${SIZE} ==`);
  await migrate(db);
  await ensureFirstAdmin(db, { username: 'admin', password: 'bench-password-123' });
  const t0 = performance.now();
  for (let start = 0; start < rows; start += 250_000) {
    const end = Math.min(rows, start + 250_000);
    // Names repeat (ties), 10% are disabled, a third never signed in (NULLs), phones only on some.
    await db.query(
      `INSERT INTO users (username, name, email, phone, state, last_login_at, created_at, updated_at)
       SELECT 'user' || g, 'Name ' || (g::bigint * 7919 % 50000), 'user' || g || '@example.com',
              CASE WHEN g % 5 = 0 THEN '1' || lpad(g::text, 10, '0') END, g % 10 <> 0,
              CASE WHEN g % 3 <> 0 THEN timestamptz '2026-01-01' + (g * 7 % 86400) * interval '1 minute' END,
              timestamptz '2025-01-01' + g * interval '1 second', timestamptz '2025-01-01' + g * interval '1 second'
         FROM generate_series($1::int, $2::int) g`,
      [start + 1, end],
    );
  }
  await db.exec('VACUUM ANALYZE users');
  say(`seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  const app = await serveBench(db, { dataDir: '/tmp/bench-scale' });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await adminToken(db);
  try {
    const first = await api(base, token, `size=${SIZE}`);
    const totalPages = first.pagination.total_pages;
    const deepPage = Math.min(25_000, Math.max(2, Math.floor(totalPages / 2)));
    const deepCursor = (await api(base, token, `size=${SIZE}&page=${deepPage - 1}`)).pagination.next_cursor;
    say(
      `first page: total ${first.pagination.total}${first.pagination.total_is_estimate ? ' (estimate)' : ''}, ` +
        `${totalPages} pages; deep page ${deepPage}`,
    );
    const cols = selectColumns(users);
    const page = (where: string, order: string, n: number) =>
      `SELECT ${cols} FROM users ${where} ${order} LIMIT ${SIZE} OFFSET ${(n - 1) * SIZE}`;
    const count = (where: string) => `SELECT count(*) FROM users ${where}`;
    const cases: Case[] = [
      { name: 'first page', query: '', sql: [page('', 'ORDER BY id DESC', 1), count('')] },
      { name: 'page 2', query: 'page=2', sql: [page('', 'ORDER BY id DESC', 2), count('')] },
      {
        name: 'page 2 by cursor',
        query: `cursor=${first.pagination.next_cursor ?? ''}`,
        sql: [page('', 'ORDER BY id DESC', 2), count('')],
      },
      {
        name: `page ${deepPage}`,
        query: `page=${deepPage}`,
        sql: [page('', 'ORDER BY id DESC', deepPage), count('')],
      },
      {
        name: `page ${deepPage + 1} (next)`,
        query: `page=${deepPage + 1}`,
        sql: [page('', 'ORDER BY id DESC', deepPage + 1), count('')],
      },
      {
        name: `page ${deepPage}, after write`,
        query: `page=${deepPage}`,
        sql: [page('', 'ORDER BY id DESC', deepPage), count('')],
        // A statement-level trigger fires for an UPDATE of no row too: the table's positions are forgotten.
        before: () => db.exec('UPDATE users SET name = name WHERE false'),
      },
      {
        name: `page ${deepPage}, login desc`,
        query: `page=${deepPage}&orderBy=last_login_at&sortedBy=desc`,
        sql: [page('', 'ORDER BY last_login_at DESC, id DESC', deepPage), count('')],
      },
      {
        name: `page ${deepPage} by cursor`,
        query: `cursor=${deepCursor ?? ''}`,
        sql: [page('', 'ORDER BY id DESC', deepPage), count('')],
      },
      {
        name: `last page (${totalPages})`,
        query: `page=${totalPages}`,
        sql: [page('', 'ORDER BY id DESC', totalPages), count('')],
      },
      ...['id', 'username', 'name', 'state', 'last_login_at', 'created_at', 'updated_at'].map((f) => ({
        name: `sort ${f}`,
        query: `orderBy=${f}&sortedBy=asc`,
        sql: [page('', `ORDER BY ${f} ASC, id ASC`, 1), count('')],
      })),
      likeCase('like, selective', 'username', 'user12345'),
      likeCase('like, unselective', 'name', 'na'),
      {
        name: '= state (10%)',
        query: 'search=state:0',
        sql: [page('WHERE state = false', 'ORDER BY id DESC', 1), count('WHERE state = false')],
      },
      {
        name: '= state + sort name',
        query: 'search=state:0&orderBy=name&sortedBy=asc',
        sql: [page('WHERE state = false', 'ORDER BY name ASC, id ASC', 1), count('WHERE state = false')],
      },
    ];
    function likeCase(name: string, field: string, text: string): Case {
      const where = `WHERE ${field} ILIKE '%${text}%'`;
      return {
        name,
        query: `search=${field}:${text}&searchFields=${field}:like`,
        sql: [page(where, 'ORDER BY id DESC', 1), count(where)],
      };
    }
    say(
      `${'case'.padEnd(26)} ${'engine p50'.padStart(10)} ${'p95'.padStart(8)} ${'bare p50'.padStart(10)} ${'p95'.padStart(8)}  ratio`,
    );
    const firstP50: number[] = [];
    for (const c of cases) {
      const engine: number[] = [];
      const bare: number[] = [];
      const url = `${base}/api/${users.endpoint}?size=${SIZE}${c.query ? `&${c.query}` : ''}`;
      for (let i = 0; i < ROUNDS; i++) {
        await c.before?.();
        engine.push(await time(() => get(url, token)));
        bare.push(await time(async () => void (await Promise.all(c.sql.map((s) => db.query(s))))));
      }
      const e50 = pct(engine, 50);
      const b50 = pct(bare, 50);
      if (c.name === 'first page' || c.name.startsWith('last page')) firstP50.push(e50);
      say(
        `${c.name.padEnd(26)} ${ms(e50).padStart(10)} ${ms(pct(engine, 95)).padStart(8)} ${ms(b50).padStart(10)} ${ms(pct(bare, 95)).padStart(8)}  ${(e50 / b50).toFixed(2)}x`,
      );
    }
    if (firstP50.length === 2)
      say(`last page / first page (engine p50): ${(firstP50[1]! / firstP50[0]!).toFixed(2)}x`);
    await exportRun(db, base, token, cols);
  } finally {
    await app.close();
  }
}

interface Case {
  name: string;
  query: string;
  sql: string[];
  /** Run before each engine round, untimed. */
  before?: () => Promise<void>;
}

/** The whole table's CSV export over HTTP (read by another process), next to COPY of the same columns. */
async function exportRun(db: Db, base: string, token: string, cols: string): Promise<void> {
  const exp = await httpExport(`${base}/api/${users.endpoint}/export`, token).catch((error: Error) => {
    say(error.message);
    return null;
  });
  if (!exp) return;
  let bareRows = 0;
  let bareS = 0;
  if (db.copyOut) {
    const t1 = performance.now();
    const stream = await db.copyOut(`SELECT ${cols} FROM users ORDER BY id DESC`, []);
    for await (const chunk of stream as AsyncIterable<Buffer>)
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) bareRows++;
    bareS = (performance.now() - t1) / 1000;
  }
  const rate = (n: number, s: number) => `${Math.round(n / s).toLocaleString('en')} rows/s`;
  say(
    `export: engine ${exp.rows} rows, ${rate(exp.rows, exp.seconds)}, RSS +${(exp.rssGrowth / 1e6).toFixed(0)} MB` +
      (bareS
        ? `; COPY of the same columns ${rate(bareRows, bareS)}; ratio ${(bareRows / bareS / (exp.rows / exp.seconds)).toFixed(2)}x`
        : ''),
  );
}

interface Pagination {
  total: number;
  total_pages: number;
  total_is_estimate?: boolean;
  next_cursor?: string | null;
}

async function api(base: string, token: string, query: string): Promise<{ pagination: Pagination }> {
  const res = await fetch(`${base}/api/${users.endpoint}?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { data: { meta: { pagination: Pagination } } };
  return { pagination: body.data.meta.pagination };
}

async function get(url: string, token: string): Promise<void> {
  const res = await fetch(url, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
}

async function time(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

function ms(value: number): string {
  return `${value.toFixed(1)} ms`;
}
