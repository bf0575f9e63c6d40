import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../server/db/pglite.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { migrate } from '../../server/db/migrate.ts';

/**
 * Global setup of the `server` test project: migrates one template database per run, so that every
 * `createTestDb()` (tests/helpers/db.ts) starts from a copy instead of creating and migrating its own.
 * On PGlite a data directory (in /dev/shm when there is one) that each test database copies; under
 * `npm run test:pg` a database in DATABASE_URL's cluster that `CREATE DATABASE ... TEMPLATE` copies.
 * Teardown removes both. Tests that test migrations still start empty (`createTestDb({ migrated: false })`).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Directory holding `template/` (a migrated PGlite data directory); test databases are copied beside it. */
    pgliteTemplateRoot: string | null;
    /** Name of the migrated template database in DATABASE_URL's cluster (test:pg only). */
    pgTemplate: string | null;
  }
}

let cleanup: (() => Promise<void>) | null = null;

export async function setup(project: TestProject): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (base) {
    const name = `t_template_${crypto.randomBytes(6).toString('hex')}`;
    await adminQuery(base, `CREATE DATABASE ${name}`);
    cleanup = () => adminQuery(base, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const db = await openPostgres(url.toString(), { max: 1 });
    try {
      await migrate(db);
    } finally {
      // A template may have no open connections while it is copied.
      await db.close();
    }
    project.provide('pgTemplate', name);
    project.provide('pgliteTemplateRoot', null);
    return;
  }
  const shm = '/dev/shm';
  const parent = isWritableDir(shm) ? shm : os.tmpdir();
  const root = fs.mkdtempSync(path.join(parent, 'admin-test-pglite-'));
  cleanup = async () => fs.rmSync(root, { recursive: true, force: true });
  const db = await openPglite(path.join(root, 'template'));
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  project.provide('pgliteTemplateRoot', root);
  project.provide('pgTemplate', null);
}

export async function teardown(): Promise<void> {
  const done = cleanup;
  cleanup = null;
  await done?.();
}

async function adminQuery(connectionString: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function isWritableDir(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
