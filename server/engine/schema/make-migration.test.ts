import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineResource, field, reference, references } from '../../../resources/define.ts';
import { openPglite } from '../../db/pglite.ts';
import { readMigrations } from '../../db/migrate.ts';
import { makeMigration as makeOne } from './make-migration.ts';
import { migrationProblems, snapshotPath } from './snapshot.ts';
import { createResourcesModule } from '../module.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-migrations-'));

/** Generates as if every migration already in the directory were applied (each run adds a new one). */
function makeMigration(args: Parameters<typeof makeOne>[0]): ReturnType<typeof makeOne> {
  const names = fs.existsSync(args.dir) ? readMigrations(args.dir).map((m) => m.name) : [];
  return makeOne({ applied: new Set(names), ...args });
}
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const owners = defineResource({
  name: 'owners',
  endpoint: 'v1/t/owners',
  permission: 't.owners',
  schema: z.object({ name: field(z.string().min(1), { search: 'like' }) }),
});
const v1 = defineResource({
  name: 'widgets',
  endpoint: 'v1/t/widgets',
  permission: 't.widgets',
  schema: z.object({
    title: field(z.string().min(1), { sort: true }),
    size: field(z.int().optional(), {}),
    legacy: z.string().optional(),
  }),
});
const v2 = defineResource({
  name: 'widgets',
  endpoint: 'v1/t/widgets',
  permission: 't.widgets',
  schema: z.object({
    title: field(z.string().min(1), {}),
    size: field(z.int(), { search: '=', backfill: '0' }),
    code: field(z.string().default('x'), { unique: true }),
    owner_id: reference('owners'),
  }),
});

describe('make:migration', () => {
  it('writes CREATE TABLE, then an ALTER for a changed schema, both of which apply', async () => {
    const first = makeMigration({ resource: owners, registry: [owners, v1], dir });
    const second = makeMigration({ resource: v1, registry: [owners, v1], dir });
    expect([first.status, second.status]).toEqual(['created', 'created']);
    expect(path.basename(second.file!)).toBe('0002_widgets.sql');
    expect(makeMigration({ resource: v1, registry: [owners, v1], dir }).status).toBe('unchanged');
    expect(migrationProblems([owners, v2], dir)).toEqual([
      'Resource "widgets" changed since its last migration: run `npm run make:migration widgets`.',
    ]);

    const third = makeMigration({ resource: v2, registry: [owners, v2], dir, allowDrop: true });
    expect(third.status).toBe('altered');
    const sql = fs.readFileSync(third.file!, 'utf8');
    expect(sql).toContain('ALTER TABLE "widgets" DROP COLUMN "legacy";');
    expect(sql).toContain(`ALTER TABLE "widgets" ADD COLUMN "code" text NOT NULL DEFAULT 'x';`);
    expect(sql).toContain('ADD CONSTRAINT "widgets_code_key" UNIQUE ("code")');
    expect(sql).toContain('ALTER TABLE "widgets" ALTER COLUMN "size" SET NOT NULL;');
    expect(sql).toContain('CREATE INDEX "widgets_size_idx"');
    // title is no longer sortable: its (title, id) index goes.
    expect(sql).toContain('DROP INDEX IF EXISTS "widgets_title_sort";');
    expect(sql).toContain('REFERENCES "owners" ("id") ON DELETE SET NULL');
    expect(migrationProblems([owners, v2], dir)).toEqual([]);

    const db = await openPglite(null);
    for (const m of readMigrations(dir)) await db.exec(m.sql);
    const { rows } = await db.query<{ column_name: string; is_nullable: string }>(
      `SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = 'widgets' ORDER BY ordinal_position`,
    );
    expect(rows.map((r) => r.column_name)).toEqual([
      'id',
      'title',
      'size',
      'created_at',
      'updated_at',
      'created_by',
      'updated_by',
      'version',
      'deleted_at',
      'code',
      'owner_id',
    ]);
    await db.close();
  });

  it('--baseline records a snapshot for an existing table without SQL', () => {
    const before = readMigrations(dir).length;
    const res = makeMigration({
      resource: owners,
      registry: [owners],
      dir: path.join(dir, 'base'),
      baseline: true,
    });
    expect(res).toMatchObject({ status: 'baseline', file: null });
    expect(readMigrations(dir).length).toBe(before);
    expect(migrationProblems([owners], path.join(dir, 'base'))).toEqual([]);
  });

  it('the server refuses to start when a resource has no migration, naming it and the command', async () => {
    const mod = createResourcesModule({ resources: [v1], migrationsDir: path.join(dir, 'empty') });
    await expect(mod.register({} as never, {} as never)).rejects.toThrow(
      'Resource "widgets" has no migration: run `npm run make:migration widgets`.',
    );
  });

  it('a new table and its join table notify table_changes on every write, so servers forget page positions', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-migrations-notify-'));
    const labels = defineResource({
      name: 'labels',
      endpoint: 'v1/t/labels',
      permission: 't.labels',
      schema: z.object({ name: field(z.string().min(1), {}) }),
    });
    const crates = defineResource({
      name: 'crates',
      endpoint: 'v1/t/crates',
      permission: 't.crates',
      schema: z.object({ code: field(z.string().min(1), { sort: true }), label_ids: references('labels') }),
    });
    const registry = [labels, crates];
    makeMigration({ resource: labels, registry, dir: out });
    const created = makeMigration({ resource: crates, registry, dir: out });
    const sql = fs.readFileSync(created.file!, 'utf8');
    expect(sql).toContain(
      'CREATE TRIGGER "crates_table_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "crates"\n' +
        '  FOR EACH STATEMENT EXECUTE FUNCTION table_changed();',
    );
    expect(sql).toContain('CREATE TRIGGER "crates_labels_table_changed"');
    // The function comes first, so the file applies on its own (as on a database without migration 0111).
    expect(sql.indexOf('CREATE OR REPLACE FUNCTION table_changed()')).toBeLessThan(
      sql.indexOf('CREATE TRIGGER'),
    );
    const db = await openPglite(null);
    try {
      for (const m of readMigrations(out)) await db.exec(m.sql);
      const heard: string[] = [];
      await db.listen('table_changes', (table) => heard.push(table));
      await db.query("INSERT INTO labels (name) VALUES ('a')");
      await db.query("INSERT INTO crates (code) VALUES ('b')");
      await db.query(
        'INSERT INTO crates_labels (crate_id, label_id) SELECT b.id, l.id FROM crates b, labels l',
      );
      await db.query("UPDATE crates SET code = 'c' WHERE false");
      await db.query('DELETE FROM crates_labels');
      await db.exec('TRUNCATE crates CASCADE');
      expect(heard.slice(0, 5)).toEqual(['labels', 'crates', 'crates_labels', 'crates', 'crates_labels']);
      // TRUNCATE ... CASCADE empties the join table too: both say so.
      expect(heard.slice(5).sort()).toEqual(['crates', 'crates_labels']);
    } finally {
      await db.close();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  describe('trigram indexes for like searches', () => {
    const trgmDir = path.join(dir, 'trgm');
    const n1 = defineResource({
      name: 'notes',
      endpoint: 'v1/t/notes',
      permission: 't.notes',
      schema: z.object({
        title: field(z.string(), { search: ['like', '='], sort: true }),
        body: field(z.string().max(5000).optional(), { search: 'like' }),
        code: field(z.string(), {}),
        rank: field(z.int(), { search: ['=', 'like'] }),
        color: field(z.enum(['red', 'blue']), { search: 'like' }),
      }),
    });
    const n2 = defineResource({
      name: 'notes',
      endpoint: 'v1/t/notes',
      permission: 't.notes',
      schema: z.object({
        title: field(z.string(), { search: '=', sort: true }),
        body: field(z.string().max(5000).optional(), { search: ['like', 'in'] }),
        code: field(z.string(), { search: 'like' }),
        rank: field(z.int(), { search: ['=', 'like'] }),
        color: field(z.enum(['red', 'blue']), { search: 'like' }),
        summary: field(z.string().optional(), { search: 'like', unique: true }),
      }),
    });
    const count = (sql: string, part: string) => sql.split(part).length - 1;
    const indexesOf = async (db: Awaited<ReturnType<typeof openPglite>>) =>
      (
        await db.query<{ indexname: string; indexdef: string }>(
          `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'notes' ORDER BY indexname`,
        )
      ).rows;

    it('CREATE TABLE gets a GIN trigram index per like-searchable text column, after CREATE EXTENSION', () => {
      const res = makeMigration({ resource: n1, registry: [n1], dir: trgmDir });
      const sql = fs.readFileSync(res.file!, 'utf8');
      const lines = sql.split('\n');
      expect(lines[0]).toMatch(/^-- Resource "notes"/);
      expect(lines[1]).toBe('CREATE EXTENSION IF NOT EXISTS pg_trgm;');
      expect(count(sql, 'CREATE EXTENSION')).toBe(1);
      expect(sql).toContain('CREATE INDEX "notes_title_trgm" ON "notes" USING gin ("title" gin_trgm_ops);');
      expect(sql).toContain('CREATE INDEX "notes_body_trgm" ON "notes" USING gin ("body" gin_trgm_ops);');
      expect(sql).toContain('CREATE INDEX "notes_color_trgm"');
      // A btree stays for sorting and `=`, not for a column searched only with like.
      expect(sql).toContain(
        'CREATE INDEX "notes_title_sort" ON "notes" ("title", "id") WHERE "deleted_at" IS NULL;',
      );
      expect(sql).not.toContain('"notes_title_idx"');
      expect(sql).not.toContain('"notes_body_idx"');
      expect(sql).not.toContain('"notes_color_idx"');
      // Not a text column: no trigram index (only the btree for `=`).
      expect(sql).not.toContain('notes_rank_trgm');
      expect(sql).toContain('CREATE INDEX "notes_rank_idx"');
      expect(sql).not.toContain('"notes_code_');
    });

    it('ALTER adds the index when a field gains like and drops it when like goes away', async () => {
      expect(migrationProblems([n2], trgmDir)).toEqual([
        'Resource "notes" changed since its last migration: run `npm run make:migration notes`.',
      ]);
      const res = makeMigration({ resource: n2, registry: [n2], dir: trgmDir });
      expect(res.status).toBe('altered');
      const sql = fs.readFileSync(res.file!, 'utf8');
      expect(sql.split('\n')[1]).toBe('CREATE EXTENSION IF NOT EXISTS pg_trgm;');
      expect(count(sql, 'CREATE EXTENSION')).toBe(1);
      expect(sql).toContain('DROP INDEX IF EXISTS "notes_title_trgm";');
      expect(sql).toContain('CREATE INDEX "notes_code_trgm" ON "notes" USING gin ("code" gin_trgm_ops);');
      expect(sql).toContain('CREATE INDEX "notes_summary_trgm"');
      expect(sql).toContain('CREATE INDEX "notes_body_idx" ON "notes" ("body");');
      expect(sql).not.toContain('notes_body_trgm');
      expect(migrationProblems([n2], trgmDir)).toEqual([]);

      // Losing the last like: the index goes, and no extension line for a file that creates none.
      const back = makeMigration({ resource: n1, registry: [n1], dir: trgmDir, allowDrop: true });
      const sql3 = fs.readFileSync(back.file!, 'utf8');
      expect(sql3).toContain('DROP INDEX IF EXISTS "notes_code_trgm";');
      expect(sql3).toContain('ALTER TABLE "notes" DROP COLUMN "summary";'); // its indexes go with it
      expect(sql3).toContain('CREATE INDEX "notes_title_trgm"');

      const db = await openPglite(null);
      try {
        for (const m of readMigrations(trgmDir).slice(0, 2)) await db.exec(m.sql);
        const names = (await indexesOf(db)).map((r) => r.indexname);
        expect(names).toEqual(
          expect.arrayContaining([
            'notes_body_idx',
            'notes_code_trgm',
            'notes_summary_trgm',
            'notes_color_trgm',
          ]),
        );
        expect(names).not.toContain('notes_title_trgm');
        const def = (await indexesOf(db)).find((r) => r.indexname === 'notes_code_trgm')!.indexdef;
        expect(def).toBe('CREATE INDEX notes_code_trgm ON public.notes USING gin (code gin_trgm_ops)');
        await db.exec(readMigrations(trgmDir)[2]!.sql);
        const after = (await indexesOf(db)).map((r) => r.indexname);
        expect(after).not.toContain('notes_code_trgm');
        expect(after).toContain('notes_title_trgm');
      } finally {
        await db.close();
      }
    });

    it('a field losing like without any new trigram index: no CREATE EXTENSION line', () => {
      const d = path.join(dir, 'trgm-drop');
      const plain = defineResource({
        name: 'notes',
        endpoint: 'v1/t/notes',
        permission: 't.notes',
        schema: z.object({ title: field(z.string(), { sort: true }) }),
      });
      makeMigration({ resource: owners, registry: [owners], dir: d });
      const changed = defineResource({
        name: 'owners',
        endpoint: 'v1/t/owners',
        permission: 't.owners',
        schema: z.object({ name: field(z.string().min(1), {}) }),
      });
      const sql = fs.readFileSync(
        makeMigration({ resource: changed, registry: [changed], dir: d }).file!,
        'utf8',
      );
      expect(sql).toContain('DROP INDEX IF EXISTS "owners_name_trgm";');
      expect(sql).not.toContain('CREATE EXTENSION');
      const created = makeMigration({ resource: plain, registry: [plain], dir: d });
      expect(fs.readFileSync(created.file!, 'utf8')).not.toContain('pg_trgm');
    });

    it('reads snapshots written before trigram indexes existed (missing = false, any property order)', () => {
      const d = path.join(dir, 'old-snapshots');
      const plain = defineResource({
        name: 'plain',
        endpoint: 'v1/t/plain',
        permission: 't.plain',
        schema: z.object({ title: field(z.string(), { search: '=', sort: true }) }),
      });
      makeMigration({ resource: plain, registry: [plain], dir: d });
      makeMigration({ resource: owners, registry: [owners], dir: d });
      // Rewrite both files as an older make:migration wrote them: no `trigram`, keys in another order.
      for (const name of ['plain', 'owners']) {
        const file = snapshotPath(d, name);
        const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { columns: Record<string, unknown>[] };
        stored.columns = stored.columns.map(({ trigram: _t, ...c }) =>
          Object.fromEntries(Object.entries(c).reverse()),
        );
        fs.writeFileSync(file, JSON.stringify(stored, null, 2));
      }
      expect(migrationProblems([plain], d)).toEqual([]);
      expect(makeMigration({ resource: plain, registry: [plain], dir: d }).status).toBe('unchanged');
      // owners.name is searched with like: its old snapshot lacks the index, so start-up asks for a migration.
      expect(migrationProblems([owners], d)).toEqual([
        'Resource "owners" changed since its last migration: run `npm run make:migration owners`.',
      ]);
      const res = makeMigration({ resource: owners, registry: [owners], dir: d });
      expect(fs.readFileSync(res.file!, 'utf8')).toBe(
        [
          '-- Resource "owners": changes since the last migration (review before committing).',
          'CREATE EXTENSION IF NOT EXISTS pg_trgm;',
          'CREATE INDEX "owners_name_trgm" ON "owners" USING gin ("name" gin_trgm_ops);',
          '',
        ].join('\n'),
      );
      expect(migrationProblems([owners, plain], d)).toEqual([]);
    });

    it('truncates long trigram index names to 63 bytes like the other names', () => {
      const long = 'a'.repeat(40);
      const r = defineResource({
        name: long,
        endpoint: 'v1/t/long',
        permission: 't.long',
        schema: z.object({ [`${'b'.repeat(30)}`]: field(z.string(), { search: 'like' }) }),
      });
      const res = makeMigration({ resource: r, registry: [r], dir: path.join(dir, 'long') });
      const name = `${long}_${'b'.repeat(30)}_trgm`.slice(0, 63);
      expect(fs.readFileSync(res.file!, 'utf8')).toContain(`CREATE INDEX "${name}" ON "${long}" USING gin`);
    });
  });
});
