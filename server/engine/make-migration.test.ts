import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineResource, field, reference } from '../../resources/define.ts';
import { openPglite } from '../db/pglite.ts';
import { readMigrations } from '../db/migrate.ts';
import { makeMigration } from './make-migration.ts';
import { migrationProblems } from './snapshot.ts';
import { createResourcesModule } from './module.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engine-migrations-'));
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
    size: field(z.int(), { search: '=' }),
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

    const third = makeMigration({ resource: v2, registry: [owners, v2], dir });
    expect(third.status).toBe('altered');
    const sql = fs.readFileSync(third.file!, 'utf8');
    expect(sql).toContain('ALTER TABLE "widgets" DROP COLUMN "legacy";');
    expect(sql).toContain(`ALTER TABLE "widgets" ADD COLUMN "code" text NOT NULL DEFAULT 'x';`);
    expect(sql).toContain('ADD CONSTRAINT "widgets_code_key" UNIQUE ("code")');
    expect(sql).toContain('ALTER TABLE "widgets" ALTER COLUMN "size" SET NOT NULL;');
    expect(sql).toContain('CREATE INDEX "widgets_size_idx"');
    expect(sql).toContain('DROP INDEX "widgets_title_idx";');
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
});
