import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineResource, field, isSoftDelete } from '../../resources/define.ts';
import { resources } from '../../resources/index.ts';
import { sortableFields } from '../../resources/fields.ts';
import type { Db } from '../../server/db/index.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { makeMigration } from '../../server/engine/schema/make-migration.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Generated migrations applied to real databases (PGlite here, PostgreSQL under `npm run test:pg`): a rename
 * keeps the rows' data, a backfill fills existing rows, the product's shipped dictionaries exist on a fresh
 * install (translated per language, not overwritten once edited), and every sortable field's list order is
 * served by an index.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-migrations-it-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const notes = (shape: z.ZodRawShape) =>
  defineResource({ name: 'notes', endpoint: 'v1/t/notes', permission: 't.notes', schema: z.object(shape) });

describe('generated migrations on a table with rows', () => {
  let t: TestDb;
  let db: Db;
  const dir = path.join(root, 'rename');
  const applied = new Set<string>();
  beforeAll(async () => {
    t = await createTestDb({ migrated: false });
    db = t.db;
  });
  afterAll(() => t.drop());

  /** Generates the migration for `resource` and applies it, as db:migrate would. */
  async function step(resource: ReturnType<typeof notes>): Promise<string> {
    const res = makeMigration({ resource, registry: [resource], dir, applied });
    const sql = fs.readFileSync(res.file!, 'utf8');
    await db.exec(sql);
    applied.add(path.basename(res.file!, '.sql'));
    return sql;
  }

  it('a renamedFrom migration keeps every row’s value, its unique constraint and its search index', async () => {
    await step(
      notes({
        title: field(z.string().max(100), { sort: true }),
        description: field(z.string().max(500).optional(), { search: 'like', unique: true }),
      }),
    );
    for (let i = 0; i < 50; i++)
      await db.query('INSERT INTO notes (title, description) VALUES ($1, $2)', [`t${i}`, `about ${i}`]);
    await step(
      notes({
        title: field(z.string().max(100), { sort: true }),
        body: field(z.string().max(500).optional(), {
          search: 'like',
          unique: true,
          renamedFrom: 'description',
        }),
      }),
    );
    const { rows } = await db.query<{ title: string; body: string }>(
      'SELECT title, body FROM notes ORDER BY id',
    );
    expect(rows).toHaveLength(50);
    expect(rows[7]).toEqual({ title: 't7', body: 'about 7' });
    const duplicate = await db
      .query(`INSERT INTO notes (title, body) VALUES ('x', 'about 7')`)
      .catch((e) => e);
    expect(duplicate).toMatchObject({ code: '23505', constraint: 'notes_body_key' });
    const indexes = await db.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename = 'notes' ORDER BY indexname`,
    );
    expect(indexes.rows.map((r) => r.indexname)).toEqual(
      expect.arrayContaining(['notes_body_key', 'notes_body_trgm', 'notes_title_sort']),
    );
  });

  it('a NOT NULL column with a backfill is added to the filled table; a bound is checked', async () => {
    await step(
      notes({
        title: field(z.string().max(100), { sort: true }),
        body: field(z.string().max(500).optional(), {
          search: 'like',
          unique: true,
          renamedFrom: 'description',
        }),
        code: field(z.string().max(20), { backfill: `'N-' || "id"` }),
        rank: field(z.int().min(0).max(10).default(0), {}),
      }),
    );
    const { rows } = await db.query<{ code: string; rank: number }>(
      'SELECT code, rank FROM notes ORDER BY id LIMIT 1',
    );
    expect(rows[0]!.code).toMatch(/^N-\d+$/);
    expect(rows[0]!.rank).toBe(0);
    const outOfRange = await db.query('UPDATE notes SET rank = 11').catch((e) => e);
    expect(outOfRange).toMatchObject({ code: '23514', constraint: 'notes_rank_check' });
  });
});

describe('the product database', () => {
  let app: TestApp;
  let admin: string;
  beforeAll(async () => {
    app = await createTestApp();
    admin = await app.adminToken();
  });
  afterAll(() => app.close());

  it('a fresh install has the gender dictionary with its entries, labelled in each language', async () => {
    const { rows } = await app.db.query<{ name: string; data: { value: string; label: string }[] }>(
      `SELECT name, data FROM dictionary_types WHERE slug = 'gender'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.data.map((e) => e.value)).toEqual(['male', 'female', 'unknown']);
    const options = async (lang: string) =>
      (
        await app.request({
          url: '/api/v1/dictionary/options/gender',
          token: admin,
          headers: { 'accept-language': lang },
        })
      ).json().data.data;
    expect(await options('en')).toEqual([
      { value: 'male', label: 'Male' },
      { value: 'female', label: 'Female' },
      { value: 'unknown', label: 'Unknown' },
    ]);
    expect((await options('zh-CN')).map((o: { label: string }) => o.label)).toEqual(['男', '女', '未知']);
  });

  it('the dictionary stays editable, and its seeding migration run again overwrites nothing', async () => {
    const list = await app.request({
      url: '/api/v1/dictionary/types?search=slug:gender&searchFields=slug:=',
      token: admin,
    });
    const gender = list.json().data.data[0];
    const data = gender.data.map((e: { value: string }) =>
      e.value === 'unknown' ? { ...e, label: '保密', state: false } : e,
    );
    const saved = await app.request({
      method: 'PATCH',
      url: `/api/v1/dictionary/types/${gender.id}`,
      token: admin,
      payload: { data },
    });
    expect(saved.statusCode).toBe(200);
    // The English translation survives an edit through the API.
    expect(saved.json().data.data[0]).toMatchObject({ value: 'male', labels: { en: 'Male' } });
    // The seeding statements of the product's migrations, run a second time (as on an edited install).
    const seeding = readMigrations()
      .flatMap((m) => m.sql.split('\n'))
      .filter((line) => /^(INSERT INTO|UPDATE) "dictionary_types" .*'gender'/.test(line));
    expect(seeding.length).toBeGreaterThan(0);
    for (const statement of seeding) await app.db.exec(statement);
    const { rows } = await app.db.query<{ data: { value: string; label: string; state: boolean }[] }>(
      `SELECT data FROM dictionary_types WHERE slug = 'gender'`,
    );
    expect(rows[0]!.data.find((e) => e.value === 'unknown')).toMatchObject({ label: '保密', state: false });
    expect(rows[0]!.data).toHaveLength(3);
  });

  it('every sortable field of every resource sorts through an index, in both directions', async () => {
    const plans: string[] = [];
    await app.db.transaction(async (tx) => {
      await tx.exec('SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off');
      for (const r of resources) {
        for (const f of sortableFields(r)) {
          for (const dir of ['ASC', 'DESC']) {
            // Lists read the live rows of a resource with a trash (the sort indexes cover those only).
            const live = isSoftDelete(r) ? 'WHERE "deleted_at" IS NULL' : '';
            const sql = `EXPLAIN SELECT * FROM "${r.table}" ${live} ORDER BY "${f}" ${dir}, "id" ${dir} LIMIT 15`;
            const { rows } = await tx.query<{ 'QUERY PLAN': string }>(sql);
            const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
            const usesIndex = /Index (Only )?Scan( Backward)? using/.test(plan) && !/Sort/.test(plan);
            if (!usesIndex) plans.push(`${r.table}.${f} ${dir}:\n${plan}`);
          }
        }
      }
    });
    expect(plans).toEqual([]);
  });
});
