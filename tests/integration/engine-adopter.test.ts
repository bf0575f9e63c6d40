import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineResource, field } from '../../resources/define.ts';
import { catalogs } from '../../locales/index.ts';
import { AppError } from '../../server/core/errors.ts';
import { alterTableSql, createTableSql } from '../../server/engine/schema/ddl.ts';
import { snapshotOf } from '../../server/engine/schema/snapshot.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp, FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { makeMigration } from '../../server/engine/schema/make-migration.ts';

/**
 * Issue 35, the defects an adopter met on the second day: the import dry run runs the resource's hooks and
 * names every row, null clears an optional text or date, an empty required reference is "Cannot be empty",
 * and a date column becoming a datetime keeps its days in the site's time zone.
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;
let hookRuns = 0;
let migrations: string;

/** A cross-field rule on the resource's schema (issue 35 item 10). */
const bookings = defineResource({
  name: 'adopter_bookings',
  endpoint: 'v1/test/adopter-bookings',
  permission: 'test.adopter_bookings',
  schema: z
    .object({
      starts_on: field(z.iso.date(), { sort: true }),
      ends_on: field(z.iso.date().optional(), {}),
    })
    .superRefine((v, ctx) => {
      if (v.starts_on && v.ends_on && v.ends_on < v.starts_on)
        ctx.addIssue({
          code: 'custom',
          path: ['ends_on'],
          message: 'resources.adopter_bookings.errors.ends_before',
        });
    }),
});

beforeAll(async () => {
  for (const [locale, text] of [
    ['en', 'Ends before it starts'],
    ['zh-CN', '结束早于开始'],
  ] as const)
    (catalogs[locale].resources as Record<string, unknown>).adopter_bookings = {
      errors: { ends_before: text },
    };
  // The fixture's migrations plus the one make:migration writes for the test's own resource.
  migrations = fs.mkdtempSync(path.join(os.tmpdir(), 'adopter-migrations-'));
  fs.cpSync(FIXTURE_MIGRATIONS, migrations, { recursive: true });
  makeMigration({ resource: bookings, registry: [...fixtureResources, bookings], dir: migrations });
  t = await createGadgetApp({
    extraResources: [bookings],
    migrationsDir: migrations,
    hooks: {
      gadgets: {
        // A rule only a hook knows: a gadget named "Forbidden ..." is refused, naming the field.
        async beforeWrite({ data }) {
          hookRuns++;
          if (typeof data.name === 'string' && data.name.startsWith('Forbidden'))
            throw AppError.validation({ name: ['validation.invalid'] });
          if (data.name === 'Refused whole')
            throw new AppError(409, 'errors.conflict', { params: { field: 'x' } });
        },
      },
    },
  });
  admin = await t.adminToken();
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(migrations, { recursive: true, force: true });
});

function upload(csv: string, qs = '') {
  const boundary = '----adopter-boundary';
  const payload =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gadgets.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return t.request({
    method: 'POST',
    url: `${BASE}/import${qs}`,
    token: admin,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' },
  });
}

const count = async () =>
  Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM gadgets')).rows[0]!.n);

describe('the import dry run runs what the import runs', () => {
  const csv = [
    'Name,SKU,Price',
    'Allowed one,HK-1,1',
    'Forbidden two,HK-2,2',
    'Allowed three,HK-3,x',
    'Refused whole,HK-4,4',
    'Allowed five,HK-5,5',
  ].join('\n');

  it('a row a beforeWrite hook refuses fails the dry run, named, and nothing is written', async () => {
    const before = await count();
    const runs = hookRuns;
    const dry = await upload(csv, '?dry_run=1');
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().data).toMatchObject({ total: 5, valid: 2, created: 2, updated: 0, dry_run: true });
    expect(dry.json().data.errors).toEqual([
      { row: 3, errors: { name: ['Invalid value'] } },
      { row: 4, errors: { price: ['Must be a number'] } },
      { row: 5, errors: { _: ['x is already taken'] } },
    ]);
    // The hook ran for every row that passed the schema (rows 2, 3, 5 and 6), in a transaction rolled back.
    expect(hookRuns - runs).toBe(4);
    expect(await count()).toBe(before);
  });

  it('the real run answers the same rows in its 422, and writes nothing', async () => {
    const before = await count();
    const res = await upload(csv);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'rows.3.name': ['Invalid value'],
      'rows.4.price': ['Must be a number'],
      'rows.5._': ['x is already taken'],
    });
    expect(await count()).toBe(before);
  });

  it('a database constraint refusing a row names that row; the others still commit once it is fixed', async () => {
    await t.db.exec(`ALTER TABLE gadgets ADD CONSTRAINT adopter_no_seven CHECK (sku <> 'DB-7')`);
    const before = await count();
    try {
      const file = 'Name,SKU,Price\nFine,DB-6,1\nNot fine,DB-7,1\nFine too,DB-8,1';
      const dry = await upload(file, '?dry_run=1');
      expect(dry.json().data.errors).toEqual([{ row: 3, errors: { _: ['Invalid value'] } }]);
      const real = await upload(file);
      expect(real.statusCode).toBe(422);
      expect(Object.keys(real.json().errors)).toEqual(['rows.3._']);
      expect(await count()).toBe(before);
    } finally {
      await t.db.exec('ALTER TABLE gadgets DROP CONSTRAINT adopter_no_seven');
    }
    const ok = await upload('Name,SKU,Price\nFine,DB-6,1\nNow fine,DB-7,1');
    expect(ok.json().data).toMatchObject({ created: 2, updated: 0, unchanged: 0, errors: [] });
  });
});

describe('empty values', () => {
  it('null for an optional text or date field is accepted on create, like an optional image', async () => {
    const res = await t.request({
      method: 'POST',
      url: BASE,
      token: admin,
      payload: {
        name: 'Nulls',
        sku: 'NULL-1',
        price: 1,
        description: null,
        released_on: null,
        launched_at: null,
        photo_id: null,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ description: null, released_on: null, launched_at: null });
  });

  it('a required reference left empty says "Cannot be empty", in both languages', async () => {
    for (const [lang, message] of [
      ['en', 'Cannot be empty'],
      ['zh-CN', '不能为空'],
    ] as const)
      for (const empty of ['', null]) {
        const res = await t.request({
          method: 'POST',
          url: '/api/v1/test/gadget-parts',
          token: admin,
          payload: { gadget_id: empty, name: 'Part' },
          headers: { 'accept-language': lang },
        });
        expect(res.statusCode).toBe(422);
        expect(res.json().errors).toEqual({ gadget_id: [message] });
      }
  });
});

describe('cross-field rules', () => {
  const BOOKINGS = '/api/v1/test/adopter-bookings';
  const send = (method: string, url: string, payload: Record<string, unknown>, lang = 'en') =>
    t.request({ method: method as 'POST', url, token: admin, payload, headers: { 'accept-language': lang } });

  it('a superRefine on the schema is a 422 under the field it names, in the caller’s language', async () => {
    const bad = await send('POST', BOOKINGS, { starts_on: '2026-05-02', ends_on: '2026-05-01' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ ends_on: ['Ends before it starts'] });
    const zh = await send('POST', BOOKINGS, { starts_on: '2026-05-02', ends_on: '2026-05-01' }, 'zh-CN');
    expect(zh.json().errors).toEqual({ ends_on: ['结束早于开始'] });
    const ok = await send('POST', BOOKINGS, { starts_on: '2026-05-01', ends_on: '2026-05-02' });
    expect(ok.statusCode, ok.body).toBe(201);
    // An update that sends both fields is checked too.
    const id = ok.json().data.id as string;
    const edit = await send('PATCH', `${BOOKINGS}/${id}`, { starts_on: '2026-05-03', ends_on: '2026-05-02' });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().errors).toEqual({ ends_on: ['Ends before it starts'] });
  });

  it('each import row is checked by the rule, named by row and field', async () => {
    const boundary = '----rules';
    const csv = 'starts_on,ends_on\n2026-05-01,2026-05-02\n2026-05-02,2026-05-01\n';
    const res = await t.request({
      method: 'POST',
      url: `${BOOKINGS}/import?dry_run=1`,
      token: admin,
      payload:
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.errors).toEqual([{ row: 3, errors: { ends_on: ['Ends before it starts'] } }]);
  });
});

describe('a date field becoming a datetime', () => {
  const before = defineResource({
    name: 'adopter_days',
    endpoint: 'v1/t/adopter-days',
    permission: 't.adopter_days',
    schema: z.object({ day: field(z.iso.date().optional(), {}) }),
  });
  const after = defineResource({
    name: 'adopter_days',
    endpoint: 'v1/t/adopter-days',
    permission: 't.adopter_days',
    schema: z.object({ day: field(z.iso.datetime({ offset: true }).optional(), {}) }),
  });

  it("keeps each day at its midnight in the site's time zone, and back", async () => {
    const prev = snapshotOf(before, [before]);
    const next = snapshotOf(after, [after]);
    await t.db.exec(createTableSql(prev));
    await t.db.query(`INSERT INTO adopter_days (day) VALUES ('2026-03-01'), (NULL)`);
    const site = await t.request({
      method: 'POST',
      url: '/api/v1/settings/site',
      token: admin,
      payload: { site_name: 'Admin', timezone: 'America/New_York' },
    });
    expect(site.statusCode, site.body).toBe(200);
    // The database session's own zone must not matter (the migration runs in its transaction, as migrate() does).
    await t.db.exec(`SET TimeZone = 'UTC'`);
    const migrateSql = (sql: string) => t.db.transaction((tx) => tx.exec(sql));
    expect(alterTableSql(prev, next)).toContain("set_config('TimeZone'");
    await migrateSql(alterTableSql(prev, next));
    const { rows } = await t.db.query<{ v: string | null }>(
      `SELECT to_char("day" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS v FROM adopter_days ORDER BY id`,
    );
    expect(rows.map((r) => r.v)).toEqual(['2026-03-01T05:00', null]);
    await migrateSql(alterTableSql(next, prev));
    // The zone was the migration's own, not left on the connection.
    const zone = await t.db.query<{ tz: string }>(`SELECT current_setting('TimeZone') AS tz`);
    expect(zone.rows[0]!.tz).not.toBe('America/New_York');
    const { rows: back } = await t.db.query<{ v: string | null }>(
      `SELECT "day"::text AS v FROM adopter_days ORDER BY id`,
    );
    expect(back.map((r) => r.v)).toEqual(['2026-03-01', null]);
  });
});
