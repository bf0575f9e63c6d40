/**
 * `npx tsx bench/scale.ts`: list calls on a big `users` table, each next to the same SQL run bare, printed as
 * figures (no assertions). Seeds SCALE_ROWS users (default 1,000,000, plus the administrator) into a
 * throwaway PostgreSQL 15 cluster (or DATABASE_URL) with generate_series, and SCALE_PGLITE_ROWS (100,000)
 * into an on-disk PGlite. For every case the engine call (signed in, over HTTP) and its bare SQL run in
 * alternating rounds (SCALE_ROUNDS, default 15): p50 and p95 of each and the ratio of the p50s.
 * "Bare" is what a plain route would run for the same answer: the page with LIMIT/OFFSET and count(*) of
 * the filter (and of the live rows, `deleted_at IS NULL`, where the table keeps a trash). Cases: first page, page 2 (by number and by cursor), a deep page, the last page, every
 * sortable field, a selective and an unselective `like`, an `=` filter, filter + sort; then one CSV export
 * of the whole table next to `COPY ... TO STDOUT` of the same columns.
 * The deep page by number is asked for again and again (its first visit walks, the later ones start from
 * the positions it left, server/engine/list/anchors.ts), then its next page, then the same page right after a
 * write to the table (an UPDATE of no row, untimed, before each round), which forgets those positions: that
 * row is the cold figure, the first visit of a deep page. Then the deep page sorted by a nullable field
 * (`last_login_at`, descending), asked for again and again too.
 * Then a department-scoped caller (issue 30): as many `staff` rows as users, spread over a tree of 10
 * departments with 10 children each; a member of one top department whose role has the data scope
 * `department_and_below` (its subtree holds a tenth of the rows) asks for the first page, a deep page (the
 * middle of its own pages, by number and by cursor) and the whole export, each next to the administrator's
 * unscoped call of the same page on the same table in the same rounds (ratio = scoped / unscoped p50), and
 * the exports as rows/s; then the first page sorted by a related field (`orderBy=department.name`) and
 * filtered by one (`department.name` like "Top 1"). Before data scopes exist (the role refuses `data_scope`) the section says so.
 * The related rows come with the plain `orderBy=name` of the same table in the same rounds, and the ratio of
 * each to it (the related sort's target: a small multiple of the plain sort).
 * Env: SCALE_ROWS, SCALE_PGLITE_ROWS, SCALE_ROUNDS, SCALE_DRIVERS (postgres,pglite), DATABASE_URL,
 * SCALE_SECTIONS=scoped (only the department-scoped section: no users rows, no users cases),
 * SCALE_SECTIONS=counts (only the totals of filtered lists, issue 37 item 4: countsRun below).
 */
import os from 'node:os';
import type { Db } from '../server/db/index.ts';
import { ensureFirstAdmin } from '../server/bootstrap.ts';
import { migrate } from '../server/db/migrate.ts';
import { selectColumns } from '../server/engine/list/records.ts';
import { departments } from '../resources/departments.ts';
import { staff } from '../resources/staff.ts';
import { users } from '../resources/users.ts';
import { issueToken } from '../server/credentials/tokens.ts';
import { adminToken, openBenchDb, serveBench } from './lib/db.ts';
import { httpExport } from './lib/export.ts';
import { pct } from './lib/stats.ts';

const ROWS = Number(process.env.SCALE_ROWS ?? 1_000_000);
const PGLITE_ROWS = Number(process.env.SCALE_PGLITE_ROWS ?? 100_000);
const ROUNDS = Number(process.env.SCALE_ROUNDS ?? 15);
const DRIVERS = (process.env.SCALE_DRIVERS ?? 'postgres,pglite').split(',');
const ONLY_SCOPED = process.env.SCALE_SECTIONS === 'scoped';
const ONLY_COUNTS = process.env.SCALE_SECTIONS === 'counts';
const SIZE = 15;
/** SCOPE_TOPS top departments of SCOPE_CHILDREN children each; staff rows spread evenly over all of them. */
const SCOPE_TOPS = 10;
const SCOPE_CHILDREN = 10;
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
  for (let start = 0; start < (ONLY_SCOPED ? 0 : rows); start += 250_000) {
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
    if (ONLY_SCOPED) return await scopedRun(db, base, token, rows);
    if (ONLY_COUNTS) return await countsRun(db, base, token);
    const first = await api(base, token, `size=${SIZE}`);
    const totalPages = first.pagination.total_pages;
    const deepPage = Math.min(25_000, Math.max(2, Math.floor(totalPages / 2)));
    const deepCursor = (await api(base, token, `size=${SIZE}&page=${deepPage - 1}`)).pagination.next_cursor;
    say(
      `first page: total ${first.pagination.total}${first.pagination.total_is_estimate ? ' (estimate)' : ''}, ` +
        `${totalPages} pages; deep page ${deepPage}`,
    );
    const cols = selectColumns(users);
    // Where the table keeps a trash (issue 36), a plain route lists the live rows too: the same predicate
    // as the engine's, which the partial indexes over the live rows serve.
    const { rows: trash } = await db.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'deleted_at'`,
    );
    const live = (where: string) =>
      !trash.length ? where : where ? `${where} AND deleted_at IS NULL` : 'WHERE deleted_at IS NULL';
    const page = (where: string, order: string, n: number) =>
      `SELECT ${cols} FROM users ${live(where)} ${order} LIMIT ${SIZE} OFFSET ${(n - 1) * SIZE}`;
    const count = (where: string) => `SELECT count(*) FROM users ${live(where)}`;
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
    await scopedRun(db, base, token, rows);
  } finally {
    await app.close();
  }
}

/** A department-scoped caller next to the administrator on a big `staff` table (see the top of the file). */
async function scopedRun(db: Db, base: string, adminTokenValue: string, rows: number): Promise<void> {
  const t0 = performance.now();
  const tops = await db.query<{ id: string }>(
    `INSERT INTO departments (name, parent_id) SELECT 'Top ' || g, 0 FROM generate_series(1, $1::int) g RETURNING id`,
    [SCOPE_TOPS],
  );
  const topIds = tops.rows.map((r) => r.id);
  await db.query(
    `INSERT INTO departments (name, parent_id)
     SELECT 'Dept ' || t || '.' || c, t FROM unnest($1::bigint[]) t, generate_series(1, $2::int) c`,
    [topIds, SCOPE_CHILDREN],
  );
  const all = (await db.query<{ id: string }>(`SELECT id FROM departments ORDER BY id`)).rows.map(
    (r) => r.id,
  );
  // Rows made by the administrator when the table records authors (after issue 30's migration).
  const hasAuthor = (
    await db.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'staff' AND column_name = 'created_by'`,
    )
  ).rows.length;
  const admin = (await db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]!.id;
  for (let start = 0; start < rows; start += 250_000) {
    const end = Math.min(rows, start + 250_000);
    await db.query(
      `INSERT INTO staff (name, phone, department_id, state, created_at, updated_at${hasAuthor ? ', created_by' : ''})
       SELECT 'Staff ' || (g::bigint * 7919 % 50000), CASE WHEN g % 4 = 0 THEN '1' || lpad(g::text, 10, '0') END,
              ($1::bigint[])[1 + g % array_length($1::bigint[], 1)], g % 10 <> 0,
              timestamptz '2025-01-01' + g * interval '1 second', timestamptz '2025-01-01' + g * interval '1 second'
              ${hasAuthor ? ', $4::bigint' : ''}
         FROM generate_series($2::int, $3::int) g`,
      [all, start + 1, end, ...(hasAuthor ? [admin] : [])],
    );
  }
  await db.exec('VACUUM ANALYZE staff');
  await db.exec('VACUUM ANALYZE departments');
  say(
    `\n-- department-scoped caller: ${rows} staff rows over ${all.length} departments, seeded in ` +
      `${((performance.now() - t0) / 1000).toFixed(0)} s --`,
  );
  const role = await fetch(`${base}/api/v1/user/roles`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminTokenValue}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'Bench scoped',
      // Departments too: a related field needs the target's read permission (the scope applies there too).
      permissions: { menu_ids: [staff.permission, `${staff.permission}.export`, departments.permission] },
      data_scope: 'department_and_below',
    }),
  });
  if (role.status !== 201) {
    say(`no department-scoped caller: the role answered ${role.status} ${(await role.text()).slice(0, 200)}`);
    return;
  }
  const roleId = ((await role.json()) as { data: { id: string } }).data.id;
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (username, name) VALUES ('scoped', 'Scoped') RETURNING id`,
  );
  const member = await db.query<{ id: string }>(
    `INSERT INTO staff (user_id, name, department_id) VALUES ($1, 'Scoped', $2) RETURNING id`,
    [user.rows[0]!.id, topIds[0]],
  );
  await db.query(`INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)`, [member.rows[0]!.id, roleId]);
  const scopedToken = (await issueToken(db, { userId: user.rows[0]!.id, remember: false })).accessToken;

  const endpoint = `${base}/api/${staff.endpoint}`;
  const first = await pageOf(endpoint, scopedToken, `size=${SIZE}`);
  // The subtree's rows, counted here: a filtered total may stop at the count cap.
  const inScope = Number(
    (
      await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM staff WHERE department_id IN (SELECT id FROM departments WHERE id = $1 OR parent_id = $1)`,
        [topIds[0]],
      )
    ).rows[0]!.n,
  );
  const scopedPages = Math.ceil(inScope / SIZE);
  const deep = Math.min(25_000, Math.max(2, Math.floor(scopedPages / 2)));
  const cursorOf = async (tok: string) =>
    (await pageOf(endpoint, tok, `size=${SIZE}&page=${deep - 1}`)).pagination.next_cursor ?? '';
  const [adminCursor, scopedCursor] = [await cursorOf(adminTokenValue), await cursorOf(scopedToken)];
  say(
    `scoped first page: total ${first.pagination.total}${first.pagination.total_is_estimate ? ' (estimate)' : ''}` +
      `${first.pagination.total_is_capped ? ' (capped)' : ''}; ${inScope} rows in its subtree, ${scopedPages} pages; deep page ${deep}`,
  );
  say(
    `${'case'.padEnd(26)} ${'unscoped p50'.padStart(12)} ${'p95'.padStart(8)} ${'scoped p50'.padStart(10)} ${'p95'.padStart(8)}  ratio`,
  );
  const cases = [
    { name: 'first page', admin: '', scoped: '' },
    { name: `page ${deep}`, admin: `page=${deep}`, scoped: `page=${deep}` },
    { name: `page ${deep} by cursor`, admin: `cursor=${adminCursor}`, scoped: `cursor=${scopedCursor}` },
    // The plain sort a related one is measured against (same table, same rounds).
    { name: 'sort name', admin: 'orderBy=name', scoped: 'orderBy=name' },
    // Related fields (issue 32 item 5): the department's name per row, and the rows whose department matches.
    { name: 'related sort', admin: 'orderBy=department.name', scoped: 'orderBy=department.name' },
    {
      name: 'related sort desc',
      admin: 'orderBy=department.name&sortedBy=desc',
      scoped: 'orderBy=department.name&sortedBy=desc',
    },
    {
      name: 'related filter',
      admin: 'search=department.name:Top 1&searchFields=department.name:like',
      scoped: 'search=department.name:Top 1&searchFields=department.name:like',
    },
  ];
  const plainSort = { unscoped: 0, scoped: 0 };
  for (const c of cases) {
    const unscoped: number[] = [];
    const scoped: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      unscoped.push(
        await time(() => get(`${endpoint}?size=${SIZE}${c.admin ? `&${c.admin}` : ''}`, adminTokenValue)),
      );
      scoped.push(
        await time(() => get(`${endpoint}?size=${SIZE}${c.scoped ? `&${c.scoped}` : ''}`, scopedToken)),
      );
    }
    const u50 = pct(unscoped, 50);
    const s50 = pct(scoped, 50);
    if (c.name === 'sort name') Object.assign(plainSort, { unscoped: u50, scoped: s50 });
    const vsPlain = c.name.startsWith('related')
      ? `; / sort name: unscoped ${(u50 / plainSort.unscoped).toFixed(2)}x, scoped ${(s50 / plainSort.scoped).toFixed(2)}x`
      : '';
    say(
      `${c.name.padEnd(26)} ${ms(u50).padStart(12)} ${ms(pct(unscoped, 95)).padStart(8)} ${ms(s50).padStart(10)} ${ms(pct(scoped, 95)).padStart(8)}  ${(s50 / u50).toFixed(2)}x${vsPlain}`,
    );
  }
  const rate = (n: number, sec: number) => `${Math.round(n / sec).toLocaleString('en')} rows/s`;
  const shown =
    first.pagination.total_is_estimate || first.pagination.total_is_capped ? null : first.pagination.total;
  if (shown !== null && shown !== inScope)
    say(`NOT SCOPED: the list counts ${shown} rows, ${inScope} are in scope`);
  const unscopedExport = await httpExport(`${endpoint}/export`, adminTokenValue);
  const scopedExport = await httpExport(`${endpoint}/export`, scopedToken);
  if (scopedExport.rows !== inScope)
    say(`NOT SCOPED: the export wrote ${scopedExport.rows} rows, ${inScope} are in scope`);
  say(
    `export: unscoped ${unscopedExport.rows} rows in ${unscopedExport.seconds.toFixed(1)} s, ${rate(unscopedExport.rows, unscopedExport.seconds)}; ` +
      `scoped ${scopedExport.rows} rows in ${scopedExport.seconds.toFixed(1)} s, ${rate(scopedExport.rows, scopedExport.seconds)}, ` +
      `RSS +${(scopedExport.rssGrowth / 1e6).toFixed(0)} MB; rows/s scoped / unscoped ${(scopedExport.rows / scopedExport.seconds / (unscopedExport.rows / unscopedExport.seconds)).toFixed(2)}x`,
  );
}

/**
 * Totals of filtered lists (issue 37 item 4), engine p50 over HTTP next to the statements the list sent
 * before (the page, then a count capped at COUNT_CAP + 1) and the ones it may send now, in alternating
 * rounds, each line with the load average: an unselective contains-search (the planner's estimate instead
 * of the count), a selective one filling the page (two statements, or one with count(*) OVER () over the
 * capped rows), a selective one shorter than a page (no count), and a deep page by number right after a
 * write that cannot move it (an UPDATE of one row's phone, then an UPDATE of no row; untimed, before each
 * round).
 */
async function countsRun(db: Db, base: string, token: string): Promise<void> {
  const cols = selectColumns(users);
  const { rows: trash } = await db.query(
    `SELECT 1 FROM information_schema.columns WHERE table_name = 'users' AND column_name = 'deleted_at'`,
  );
  const live = trash.length ? ' AND deleted_at IS NULL' : '';
  const where = (field: string, text: string) => `WHERE ${field}::text ILIKE '%${text}%'${live}`;
  const page = (w: string) => `SELECT ${cols} FROM users ${w} ORDER BY id DESC LIMIT ${SIZE + 1}`;
  const capped = (w: string) => `SELECT count(*) FROM (SELECT 1 FROM users ${w} LIMIT 10001) c`;
  const explain = (w: string) => `EXPLAIN (FORMAT JSON) SELECT 1 FROM users ${w}`;
  const windowed = (w: string) =>
    `SELECT *, count(*) OVER () AS n FROM (SELECT ${cols}, id AS k FROM users ${w} ORDER BY id DESC LIMIT 10001) s ` +
    `ORDER BY k DESC LIMIT ${SIZE + 1}`;
  const { rows: any } = await db.query<{ id: string }>(
    `SELECT id FROM users ORDER BY id LIMIT 1 OFFSET 1000`,
  );
  const some = any[0]!.id;
  const total = (await api(base, token, `size=${SIZE}`)).pagination.total_pages;
  const deep = Math.min(25_000, Math.max(2, Math.floor(total / 2)));
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const unsel = where('name', 'ame 1');
  const { rows: frac } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM users ${unsel}`);
  say(`\n-- counts (issue 37 item 4): 'ame 1' matches ${frac[0]!.n} rows; p50 of ${ROUNDS} rounds --`);
  const cases: {
    name: string;
    query: string;
    bare: Record<string, string[]>;
    before?: () => Promise<void>;
  }[] = [
    {
      name: 'like, unselective',
      query: `search=${encodeURIComponent('name:ame 1')}&searchFields=name:like`,
      bare: { 'page+count': [page(unsel), capped(unsel)], 'page+explain': [page(unsel), explain(unsel)] },
    },
    {
      name: 'like, selective, full',
      query: 'search=username:user1234&searchFields=username:like',
      bare: {
        'page+count': [page(where('username', 'user1234')), capped(where('username', 'user1234'))],
        'count over()': [windowed(where('username', 'user1234'))],
      },
    },
    {
      name: 'like, selective, short',
      query: 'search=username:user12345&searchFields=username:like',
      bare: {
        'page+count': [page(where('username', 'user12345')), capped(where('username', 'user12345'))],
        page: [page(where('username', 'user12345'))],
      },
    },
    {
      name: `page ${deep}, after update`,
      query: `page=${deep}`,
      bare: {},
      before: async () => void (await db.query(`UPDATE users SET phone = phone WHERE id = $1`, [some])),
    },
    {
      name: `page ${deep}, after no-op`,
      query: `page=${deep}`,
      bare: {},
      before: () => db.exec('UPDATE users SET name = name WHERE false'),
    },
  ];
  for (const c of cases) {
    const engine: number[] = [];
    const bare: Record<string, number[]> = Object.fromEntries(Object.keys(c.bare).map((k) => [k, []]));
    const url = `${base}/api/${users.endpoint}?size=${SIZE}&${c.query}`;
    await get(url, token);
    for (let i = 0; i < ROUNDS; i++) {
      await c.before?.();
      engine.push(await time(() => get(url, token)));
      for (const [k, sql] of Object.entries(c.bare))
        bare[k]!.push(await time(async () => void (await Promise.all(sql.map((s) => db.query(s))))));
    }
    const res = await api(base, token, `size=${SIZE}&${c.query}`);
    const p = res.pagination;
    const shown = `${p.total}${p.total_is_estimate ? ' (estimate)' : ''}${p.total_is_capped ? '+' : ''}`;
    const bares = Object.entries(bare).map(([k, v]) => `${k} ${ms(pct(v, 50))}`);
    say(
      `${c.name.padEnd(26)} engine ${ms(pct(engine, 50)).padStart(9)}  bare: ${bares.join(', ') || '-'}  total ${shown}  load ${load()}`,
    );
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
  total_is_capped?: boolean;
  next_cursor?: string | null;
}

async function api(base: string, token: string, query: string): Promise<{ pagination: Pagination }> {
  return pageOf(`${base}/api/${users.endpoint}`, token, query);
}

async function pageOf(endpoint: string, token: string, query: string): Promise<{ pagination: Pagination }> {
  const res = await fetch(`${endpoint}?${query}`, { headers: { authorization: `Bearer ${token}` } });
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
