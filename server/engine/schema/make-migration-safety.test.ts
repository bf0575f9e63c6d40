import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineDictionary } from '../../../resources/default-dictionaries.ts';
import { defineResource, dictionary, field } from '../../../resources/define.ts';
import { forgetAppliedTo, pendingFile } from './pending-migrations.ts';
import { migrate, readMigrations } from '../../db/migrate.ts';
import { openPglite } from '../../db/pglite.ts';
import { MigrationRefused, makeMigration } from './make-migration.ts';
import { readSnapshot } from './snapshot.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-migrations-safety-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => path.join(root, String(++n));

const notes = (shape: z.ZodRawShape, extra: Record<string, unknown> = {}) =>
  defineResource({
    name: 'notes',
    endpoint: 'v1/t/notes',
    permission: 't.notes',
    schema: z.object(shape),
    ...extra,
  });

/** Runs the generator as if every migration already in `dir` were applied. */
function generate(resource: ReturnType<typeof notes>, dir: string, options: { allowDrop?: boolean } = {}) {
  const applied = new Set(fs.existsSync(dir) ? readMigrations(dir).map((m) => m.name) : []);
  const res = makeMigration({ resource, registry: [resource], dir, applied, ...options });
  return { ...res, sql: res.file ? fs.readFileSync(res.file, 'utf8') : '' };
}

const files = (dir: string) => readMigrations(dir).map((m) => m.name);

describe('make:migration never loses data silently', () => {
  it('a field declared renamedFrom is a RENAME COLUMN with its indexes and constraints renamed', () => {
    const dir = freshDir();
    generate(
      notes({
        description: field(z.string().max(500).optional(), {
          search: ['like', '='],
          sort: true,
          unique: true,
        }),
      }),
      dir,
    );
    const renamed = notes({
      body: field(z.string().max(500).optional(), {
        search: ['like', '='],
        sort: true,
        unique: true,
        renamedFrom: 'description',
      }),
    });
    const { sql, status } = generate(renamed, dir);
    expect(status).toBe('altered');
    expect(sql).toContain('ALTER TABLE "notes" RENAME COLUMN "description" TO "body";');
    expect(sql).toContain('RENAME CONSTRAINT "notes_description_key" TO "notes_body_key";');
    expect(sql).toContain('RENAME CONSTRAINT "notes_description_check" TO "notes_body_check";');
    expect(sql).toContain('ALTER INDEX IF EXISTS "notes_description_trgm" RENAME TO "notes_body_trgm";');
    expect(sql).toContain('ALTER INDEX IF EXISTS "notes_description_sort" RENAME TO "notes_body_sort";');
    expect(sql).not.toContain('DROP COLUMN');
    expect(sql).not.toContain('ADD COLUMN');
    expect(sql).not.toContain('ADD CONSTRAINT');
    // The declaration may stay: once applied, nothing is left to do.
    expect(generate(renamed, dir).status).toBe('unchanged');
  });

  it('refuses to drop a column without --allow-drop, says how to fix it, and writes nothing', () => {
    const dir = freshDir();
    generate(notes({ title: field(z.string(), {}), legacy: field(z.string().optional(), {}) }), dir);
    const snapshotBefore = fs.readFileSync(path.join(dir, 'snapshots', 'notes.json'), 'utf8');
    const dropped = notes({ title: field(z.string(), {}) });
    let error: unknown;
    try {
      generate(dropped, dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MigrationRefused);
    expect((error as Error).message).toContain('Column "legacy" of "notes" is no longer declared');
    expect((error as Error).message).toContain("renamedFrom: 'legacy'");
    expect((error as Error).message).toContain('--allow-drop');
    expect(files(dir)).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, 'snapshots', 'notes.json'), 'utf8')).toBe(snapshotBefore);

    const { sql } = generate(dropped, dir, { allowDrop: true });
    expect(sql).toContain('ALTER TABLE "notes" DROP COLUMN "legacy";');
  });

  it('refuses a NOT NULL column without a default or backfill; a backfill fills the rows first', () => {
    const dir = freshDir();
    generate(notes({ title: field(z.string(), {}) }), dir);
    expect(() => generate(notes({ title: field(z.string(), {}), code: field(z.string(), {}) }), dir)).toThrow(
      /Column "code" of "notes" is added as NOT NULL without a default[\s\S]*backfill/,
    );
    expect(files(dir)).toHaveLength(1);
    // Optional -> required is the same problem for the rows holding NULL.
    const withDefault = generate(
      notes({ title: field(z.string(), {}), code: field(z.string().default('x'), {}) }),
      dir,
    );
    expect(withDefault.sql).toContain(`ADD COLUMN "code" text NOT NULL DEFAULT 'x';`);

    const withBackfill = generate(
      notes({
        title: field(z.string(), {}),
        code: field(z.string().default('x'), {}),
        slug: field(z.string(), { backfill: 'lower("title")' }),
      }),
      dir,
    );
    expect(withBackfill.sql).toContain(
      [
        'ALTER TABLE "notes" ADD COLUMN "slug" text;',
        'UPDATE "notes" SET "slug" = lower("title");',
        'ALTER TABLE "notes" ALTER COLUMN "slug" SET NOT NULL;',
      ].join('\n'),
    );
  });

  it('a nullable column becoming NOT NULL fills its NULLs with the default or backfill first', () => {
    const dir = freshDir();
    generate(notes({ a: field(z.string().optional(), {}), b: field(z.int().optional(), {}) }), dir);
    expect(() =>
      generate(notes({ a: field(z.string(), {}), b: field(z.int().optional(), {}) }), dir),
    ).toThrow(/Column "a" of "notes" becomes NOT NULL without a default/);
    const { sql } = generate(
      notes({ a: field(z.string().default(''), {}), b: field(z.int(), { backfill: '0' }) }),
      dir,
    );
    expect(sql).toContain(
      `UPDATE "notes" SET "a" = DEFAULT WHERE "a" IS NULL;\nALTER TABLE "notes" ALTER COLUMN "a" SET NOT NULL;`,
    );
    expect(sql).toContain(
      `UPDATE "notes" SET "b" = 0 WHERE "b" IS NULL;\nALTER TABLE "notes" ALTER COLUMN "b" SET NOT NULL;`,
    );
  });

  it('zod bounds become CHECK constraints and an integer column follows its bounds', () => {
    const dir = freshDir();
    const { sql } = generate(
      notes({
        small: field(z.int().min(0).max(100), {}),
        plain: field(z.int(), {}),
        big: field(z.int().min(0).max(10_000_000_000), {}),
        ratio: field(z.number().gt(0).lte(1), {}),
        name: field(z.string().trim().min(1).max(60), {}),
        color: field(z.enum(['red', 'blue']), {}),
      }),
      dir,
    );
    expect(sql).toContain(
      '"small" integer NOT NULL CONSTRAINT "notes_small_check" CHECK ("small" BETWEEN 0 AND 100)',
    );
    expect(sql).toContain('"plain" integer NOT NULL,');
    expect(sql).toContain(
      '"big" bigint NOT NULL CONSTRAINT "notes_big_check" CHECK ("big" BETWEEN 0 AND 10000000000)',
    );
    expect(sql).toContain('CHECK ("ratio" > 0 AND "ratio" <= 1)');
    expect(sql).toContain('CHECK (char_length("name") <= 60)');
    expect(sql).toContain(`CHECK ("color" IN ('red', 'blue'))`);
    // A changed bound replaces the constraint.
    const changed = generate(
      notes({
        small: field(z.int().min(0).max(1000), {}),
        plain: field(z.int(), {}),
        big: field(z.int().min(0).max(10_000_000_000), {}),
        ratio: field(z.number().gt(0).lte(1), {}),
        name: field(z.string().trim().min(1).max(60), {}),
        color: field(z.enum(['red', 'blue']), {}),
      }),
      dir,
    );
    expect(changed.sql).toContain(
      'ALTER TABLE "notes" DROP CONSTRAINT "notes_small_check";\nALTER TABLE "notes" ADD CONSTRAINT "notes_small_check" CHECK ("small" BETWEEN 0 AND 1000);',
    );
  });

  it('a re-run after a fix replaces the unapplied migration it wrote instead of stacking a second', () => {
    const dir = freshDir();
    const v1 = notes({ title: field(z.string(), {}) });
    generate(v1, dir);
    const applied = new Set(files(dir));
    // First attempt: a mistake (a column called "sumary").
    const first = makeMigration({
      resource: notes({ title: field(z.string(), {}), sumary: field(z.string().optional(), {}) }),
      registry: [],
      dir,
      applied,
    });
    expect(path.basename(first.file!)).toBe('0002_notes_change.sql');
    expect(fs.existsSync(pendingFile(dir))).toBe(true);
    // The fix, generated again before anything applied it: the same file, rewritten from the old snapshot.
    const fixed = notes({ title: field(z.string(), {}), summary: field(z.string().optional(), {}) });
    const second = makeMigration({ resource: fixed, registry: [], dir, applied });
    expect(second.replaced).toBe(first.file);
    expect(files(dir)).toEqual(['0001_notes', '0002_notes_change']);
    const sql = fs.readFileSync(second.file!, 'utf8');
    expect(sql).toContain('ADD COLUMN "summary" text;');
    expect(sql).not.toContain('sumary');
    expect(readSnapshot(dir, 'notes')!.columns.map((c) => c.name)).toContain('summary');

    // Once the database has it, the next change is a new migration.
    applied.add('0002_notes_change');
    const third = makeMigration({
      resource: notes({
        title: field(z.string(), {}),
        summary: field(z.string().optional(), { search: '=' }),
      }),
      registry: [],
      dir,
      applied,
    });
    expect(path.basename(third.file!)).toBe('0003_notes_change.sql');
    // Undoing an unapplied change entirely removes its migration and restores the snapshot.
    const undone = makeMigration({ resource: fixed, registry: [], dir, applied });
    expect(undone).toMatchObject({ status: 'unchanged', file: null, replaced: third.file });
    expect(files(dir)).toEqual(['0001_notes', '0002_notes_change']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'snapshots', 'notes.json'), 'utf8')).migration).toBe(
      '0002_notes_change',
    );
    expect(fs.existsSync(pendingFile(dir))).toBe(false);
  });

  it('a migration applied by db:migrate (its pending entry forgotten) is never rewritten', () => {
    const dir = freshDir();
    generate(notes({ title: field(z.string(), {}) }), dir);
    // Without `applied` (no database to ask) the marker decides: here the first file is pending.
    const again = makeMigration({
      resource: notes({ title: field(z.string(), { search: '=' }) }),
      registry: [],
      dir,
    });
    expect(again.replaced).toMatch(/0001_notes\.sql$/);
    expect(files(dir)).toEqual(['0001_notes']);
    expect(fs.readFileSync(again.file!, 'utf8')).toContain('CREATE TABLE');
  });
});

describe('a migration some database applied is never rewritten (issue 35)', () => {
  it('a dev server whose DATA_DIR is under the temporary directory forgets what it applied', async () => {
    const dir = freshDir();
    const first = makeMigration({ resource: notes({ title: field(z.string(), {}) }), registry: [], dir });
    expect(path.basename(first.file!)).toBe('0001_notes.sql');
    expect(fs.existsSync(pendingFile(dir))).toBe(true);
    // The server applies it at its start (server/main.ts) on a PGlite DATA_DIR under /tmp.
    const db = await openPglite(null);
    try {
      const applied = await migrate(db, readMigrations(dir));
      expect(applied).toEqual(['0001_notes']);
      forgetAppliedTo({ databaseUrl: null, dataDir: path.join(os.tmpdir(), 'dev-data') }, applied, dir);
    } finally {
      await db.close();
    }
    const written = fs.readFileSync(first.file!, 'utf8');
    // The next change, with no database to ask: a new migration, the applied one left as it was.
    const next = makeMigration({
      resource: notes({ title: field(z.string(), {}), summary: field(z.string().optional(), {}) }),
      registry: [],
      dir,
    });
    expect(next.replaced).toBeNull();
    expect(files(dir)).toEqual(['0001_notes', '0002_notes_change']);
    expect(fs.readFileSync(first.file!, 'utf8')).toBe(written);
    expect(fs.readFileSync(next.file!, 'utf8')).toContain('ADD COLUMN "summary" text;');
  }, 120_000); // opening PGlite is slow on a loaded machine

  it('a database that could not be asked: a new migration, never a rewrite', () => {
    const dir = freshDir();
    generate(notes({ title: field(z.string(), {}) }), dir);
    const first = makeMigration({
      resource: notes({ title: field(z.string(), {}), body: field(z.string().optional(), {}) }),
      registry: [],
      dir,
      applied: new Set(['0001_notes']),
    });
    const written = fs.readFileSync(first.file!, 'utf8');
    const next = makeMigration({
      resource: notes({ title: field(z.string(), {}), summary: field(z.string().optional(), {}) }),
      registry: [],
      dir,
      applied: 'unknown',
      allowDrop: true,
    });
    expect(next.replaced).toBeNull();
    expect(files(dir)).toEqual(['0001_notes', '0002_notes_change', '0003_notes_change']);
    expect(fs.readFileSync(first.file!, 'utf8')).toBe(written);
  });
});

describe('indexes for sorts and filters', () => {
  it('every sortable field gets a (field, id) btree; filters a btree; declared indexes are created', () => {
    const dir = freshDir();
    const { sql } = generate(
      notes(
        {
          title: field(z.string(), { sort: true, unique: true }),
          state: field(z.boolean(), { search: '=' }),
          rank: field(z.int(), { sort: true, search: '=' }),
          body: field(z.string().max(5000), { search: 'like' }),
        },
        { indexes: [['state', 'rank', 'id']] },
      ),
      dir,
    );
    expect(sql).toContain(
      'CREATE INDEX "notes_title_sort" ON "notes" ("title", "id") WHERE "deleted_at" IS NULL;',
    );
    expect(sql).toContain(
      'CREATE INDEX "notes_rank_sort" ON "notes" ("rank", "id") WHERE "deleted_at" IS NULL;',
    );
    expect(sql).not.toContain('"notes_rank_idx"');
    expect(sql).toContain('CREATE INDEX "notes_state_idx" ON "notes" ("state");');
    expect(sql).toContain(
      'CREATE INDEX "notes_created_at_sort" ON "notes" ("created_at", "id") WHERE "deleted_at" IS NULL;',
    );
    expect(sql).toContain(
      'CREATE INDEX "notes_updated_at_sort" ON "notes" ("updated_at", "id") WHERE "deleted_at" IS NULL;',
    );
    expect(sql).toContain('CREATE INDEX "notes_state_rank_id_idx" ON "notes" ("state", "rank", "id");');
    expect(sql).not.toContain('"notes_body_idx"');
  });
});

describe('dictionaries shipped in code', () => {
  const priority = defineDictionary({
    slug: 'priority',
    name: { 'zh-CN': '优先级', en: 'Priority' },
    entries: [
      { value: 'high', label: { 'zh-CN': '高', en: 'High' } },
      { value: 'low', label: '低' },
    ],
  });

  it('seeds a field’s dictionary once (ON CONFLICT DO NOTHING), then appends entries added later', () => {
    const dir = freshDir();
    const { sql } = generate(notes({ level: dictionary(priority, { search: '=' }) }), dir);
    expect(sql).toContain(
      `INSERT INTO "dictionary_types" ("name", "slug", "data") VALUES ('优先级', 'priority', '[{"label":"高","value":"high","state":true,"memo":"","labels":{"en":"High"}},{"label":"低","value":"low","state":true,"memo":""}]'::jsonb) ON CONFLICT ("slug") DO NOTHING;`,
    );
    const more = defineDictionary({
      ...priority,
      entries: [...priority.entries, { value: 'mid', label: { 'zh-CN': '中', en: 'Medium' } }],
    });
    const changed = generate(notes({ level: dictionary(more, { search: '=' }) }), dir);
    expect(changed.sql).toContain(`UPDATE "dictionary_types" SET "data" = "data" || coalesce(`);
    expect(changed.sql).toContain('"value":"mid"');
    expect(changed.sql).not.toContain('"value":"high"');
    expect(changed.sql).not.toContain('INSERT INTO');
  });

  it('refuses a declaration with a repeated value or a bad slug', () => {
    expect(() =>
      defineDictionary({
        slug: 'x',
        name: 'X',
        entries: [
          { value: 'a', label: 'A' },
          { value: 'a', label: 'B' },
        ],
      }),
    ).toThrow('repeated value "a"');
    expect(() => defineDictionary({ slug: 'Bad Slug', name: 'X', entries: [] })).toThrow('slug');
  });
});

describe('npm run make:migration in a terminal', () => {
  it('a refused change is a clear message and exit code 1, no stack trace, nothing written', () => {
    const dir = freshDir();
    const registry = path.join(dir, 'registry.ts');
    fs.mkdirSync(dir, { recursive: true });
    const define = path.resolve('resources/define.ts');
    const write = (shape: string) =>
      fs.writeFileSync(
        registry,
        `import * as z from ${JSON.stringify(import.meta.resolve('zod'))};\nimport { defineResource, field } from ${JSON.stringify(define)};\n` +
          `export const resources = [defineResource({ name: 'notes', endpoint: 'v1/t/notes', permission: 't.notes', schema: z.object({ ${shape} }) })];\n`,
      );
    const run = () =>
      spawnSync(
        process.execPath,
        ['--import', 'tsx', 'server/cli/make-migration.ts', 'notes', '--dir', dir, '--registry', registry],
        { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } },
      );
    write(`title: field(z.string(), {}), legacy: field(z.string().optional(), {})`);
    expect(run()).toMatchObject({ status: 0, stdout: expect.stringContaining('Created') });
    // Applied (db:migrate forgets its pending entry): the next change is diffed against it.
    fs.rmSync(pendingFile(dir));
    write(`title: field(z.string(), {}), code: field(z.string(), {})`);
    const refused = run();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('make:migration notes: refused, nothing was written.');
    expect(refused.stderr).toContain('Column "legacy" of "notes" is no longer declared');
    expect(refused.stderr).toContain('Column "code" of "notes" is added as NOT NULL without a default');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(files(dir)).toEqual(['0001_notes']);
  });
});
