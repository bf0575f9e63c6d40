import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { csvFileKey } from '../../server/engine/csv/files.ts';
import { copyStorage, hashOf } from '../../server/storage/copy.ts';
import { localStorage, postgresStorage } from '../../server/storage/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const BOUNDARY = '----storage-migrate';
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

let t: TestApp;
let admin: string;
let dataDir: string;
const uploaded = new Map<string, string>(); // asset id -> sha256

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-migrate-'));
  t = await createTestApp({ dataDir });
  admin = await t.adminToken();
  await t.request({
    method: 'POST',
    url: '/api/v1/settings/basic',
    token: admin,
    payload: { upload_max_size: 8 * 1024 * 1024, activity_retention_days: 180 },
  });
  // A populated local store: files of several sizes (one spans several 1 MiB postgres chunks) and a backup.
  for (const size of [10, 4096, 300_000, 3 * 1024 * 1024 + 17]) {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(size)]);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/resources/assets',
      token: admin,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="f.pdf"\r\n\r\n`),
        pdf,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
    });
    expect(res.statusCode).toBe(201);
    uploaded.set(res.json().data.id as string, sha(pdf));
  }
  await t.storage.put('backups/backup-20261124T000000Z.tar.gz', Readable.from([Buffer.from('backup bytes')]));
}, 60_000);
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Downloads every asset through an app on the same database whose storage is `storage`. */
async function downloadAll(storage: ReturnType<typeof postgresStorage>) {
  const app = await buildApp({ db: t.db, config: t.config, logger: pino({ level: 'silent' }), storage });
  const out = new Map<string, string>();
  for (const id of uploaded.keys()) {
    const res = await app.inject({
      url: `/api/v1/resources/assets/${id}/download`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(res.statusCode).toBe(200);
    out.set(id, sha(res.rawPayload));
  }
  await app.close();
  return out;
}

describe('moving the store between drivers', () => {
  it('local -> postgres -> local keeps every hash, and a second run resumes', async () => {
    const local = t.storage;
    const postgres = postgresStorage(t.db);
    const first = await copyStorage(local, postgres);
    expect(first).toMatchObject({ copied: 5, skipped: 0, failed: [] });
    expect(await downloadAll(postgres)).toEqual(uploaded);

    // Interrupted half way: one object missing, one cut short. The next run skips the rest.
    const keys = [];
    for await (const item of postgres.list()) keys.push(item.key);
    await postgres.remove(keys[0]!);
    await postgres.put(keys[1]!, Readable.from([Buffer.from('%PDF-1.4\ncut short')]));
    const again = await copyStorage(local, postgres);
    expect(again).toMatchObject({ copied: 2, skipped: 3, failed: [] });
    expect(await downloadAll(postgres)).toEqual(uploaded);

    const backDir = fs.mkdtempSync(path.join(dataDir, 'back-'));
    const back = localStorage(backDir);
    expect(await copyStorage(postgres, back)).toMatchObject({ copied: 5, failed: [] });
    expect(await downloadAll(back)).toEqual(uploaded);
    for await (const item of local.list()) {
      expect(await hashOf(back, item.key)).toEqual(await hashOf(local, item.key));
    }
  }, 60_000);

  it('copies CSV job files too; one removed by a running server meanwhile is gone, not a failure', async () => {
    const from = localStorage(fs.mkdtempSync(path.join(dataDir, 'jobs-from-')));
    const kept = csvFileKey('exports', crypto.randomUUID());
    const vanishing = csvFileKey('imports', crypto.randomUUID());
    for (const key of [kept, vanishing]) await from.put(key, Readable.from([Buffer.from(`a,b\n${key}\n`)]));
    // The import's job runs (and removes its upload) between the listing and the copy.
    const racing = {
      ...from,
      open: async (key: string) => {
        if (key === vanishing) await from.remove(key);
        return from.open(key);
      },
    };
    const to = postgresStorage(t.db);
    const report = await copyStorage(racing, to);
    expect(report).toMatchObject({ copied: 1, gone: 1, failed: [] });
    expect(await hashOf(to, kept)).toEqual(await hashOf(from, kept));
    expect(await to.stat(vanishing)).toBeNull();
    await to.remove(kept);
  });
});

/** The command itself, against the test's PostgreSQL database (PGlite would need the server stopped). */
describe.skipIf(!process.env.DATABASE_URL)('npm run storage:migrate', () => {
  it('moves the local store to postgres and reports every asset file there', () => {
    const res = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'server/cli/storage-migrate.ts', '--to', 'postgres'],
      {
        env: { ...process.env, DATABASE_URL: t.dbUrl!, DATA_DIR: dataDir, STORAGE: 'local' },
        encoding: 'utf8',
      },
    );
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toMatch(
      /done: \d+ copied .*, 0 job files gone meanwhile, 0 failed; 4 of 4 asset files in postgres/,
    );
  }, 60_000);
});
