import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskHandlers } from '../../server/modules/index.ts';
import { csvFileKey } from '../../server/engine/csv/files.ts';
import { newStorageKey } from '../../server/modules/files/storage.ts';
import type { StorageDriver } from '../../server/storage/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startLoopbackS3, type LoopbackS3 } from '../helpers/s3.ts';
import { TINY_PNG, uploadAsset } from '../helpers/upload.ts';

/**
 * The clean-up task (`files.clean_temp`) removes orphaned stored files in every storage driver (issue 28
 * item 8): an upload-shaped object no asset row refers to and older than the task's `older_than_hours` is
 * deleted, counted and logged, as an upload whose server died between storing the object and inserting the
 * row leaves it; files assets refer to, recent orphans (a row may be a moment away) and other keys
 * (`backups/`, names of another shape) stay; CSV job files under `jobs/` are not orphans but go by the same
 * age through their own clean-up. Objects are aged the way each store reports age: the file's
 * mtime (local, and s3rver's file behind LastModified), `committed_at` (postgres).
 */
const HOUR = 60 * 60 * 1000;
const handler = taskHandlers.find((h) => h.name === 'files.clean_temp')!;

let s3: LoopbackS3;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  await s3?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(['local', 'postgres', 's3'] as const)('STORAGE=%s', (driver: StorageDriver) => {
  let t: TestApp;
  let localDir: string;
  const lines: string[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );

  beforeAll(async () => {
    localDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orphans-local-'));
    dirs.push(localDir);
    t = await createTestApp({
      storage: { driver, localDir, s3: s3.settings },
    });
  });
  afterAll(() => t?.close());

  /** Makes `key` look stored `ms` ago to the task. */
  async function age(key: string, ms: number): Promise<void> {
    const when = new Date(Date.now() - ms);
    if (driver === 'local') fs.utimesSync(path.join(localDir, key), when, when);
    else if (driver === 's3') s3.setModified(key, when);
    else await t.db.query('UPDATE storage_objects SET committed_at = $2 WHERE key = $1', [key, when]);
    expect((await t.storage.stat(key))!.modified.getTime()).toBeLessThan(Date.now() - ms / 2);
  }

  async function storeOrphan(key: string, size: number): Promise<Buffer> {
    const content = crypto.randomBytes(size);
    await t.storage.put(key, Readable.from([content]));
    return content;
  }

  it('deletes, counts and logs old unreferenced uploads; keeps referenced, recent and other files', async () => {
    const token = await t.adminToken();
    const referenced: string[] = [];
    for (const name of ['a.png', 'b.png']) {
      const id = await uploadAsset(t, token, name, TINY_PNG, 'image/png');
      const { rows } = await t.db.query<{ storage_key: string }>(
        'SELECT storage_key FROM assets WHERE id = $1',
        [id],
      );
      referenced.push(rows[0]!.storage_key);
    }
    // Left by uploads whose server died after storing the object, before inserting the row.
    const orphans = [newStorageKey('png'), `2025/01/${crypto.randomBytes(16).toString('hex')}.pdf`];
    const sizes = [3000, 5000];
    for (const [i, key] of orphans.entries()) await storeOrphan(key, sizes[i]!);
    const recent = newStorageKey('png');
    await storeOrphan(recent, 700);
    const others = ['backups/backup-2026-01-01T02-00-00.dump', '2026/01/notes.txt'];
    for (const key of others) await storeOrphan(key, 100);
    // CSV job files (the reserved `jobs/` prefix) are never orphans: their own clean-up removes them by age.
    const oldJobFile = csvFileKey('exports', crypto.randomUUID());
    const recentJobFile = csvFileKey('imports', crypto.randomUUID());
    for (const key of [oldJobFile, recentJobFile]) await storeOrphan(key, 50);
    for (const key of [...referenced, ...orphans, ...others, oldJobFile]) await age(key, 48 * HOUR);

    const ctx = { db: t.db, config: t.config, log, storage: t.storage };
    const result = await handler.run(ctx, { older_than_hours: 1 });
    expect(result).toMatchObject({ orphans: { removed: 2, bytes: 8000 }, csv_files: 1 });
    for (const key of [...orphans, oldJobFile]) expect(await t.storage.stat(key)).toBeNull();
    for (const key of [...referenced, recent, ...others, recentJobFile])
      expect(await t.storage.stat(key)).not.toBeNull();
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; key?: string });
    expect(logged.filter((l) => l.msg === 'orphaned stored file removed').map((l) => l.key)).toEqual(
      expect.arrayContaining(orphans),
    );
    expect(logged.filter((l) => l.msg === 'orphaned stored file removed')).toHaveLength(2);

    // The files assets refer to still download, byte for byte.
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM assets ORDER BY id');
    for (const row of rows) {
      const res = await t.request({ url: `/api/v1/resources/assets/${row.id}/download`, token });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(TINY_PNG)).toBe(true);
    }

    // Once the recent orphan is past the safety age it goes too; a further run finds nothing.
    await age(recent, 2 * HOUR);
    expect(await handler.run(ctx, { older_than_hours: 1 })).toMatchObject({
      orphans: { removed: 1, bytes: 700 },
    });
    expect(await t.storage.stat(recent)).toBeNull();
    expect(await handler.run(ctx, { older_than_hours: 1 })).toMatchObject({
      orphans: { removed: 0, bytes: 0 },
      csv_files: 0,
    });
  });
});
