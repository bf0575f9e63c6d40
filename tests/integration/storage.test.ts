import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import {
  FileTooLargeError,
  localStorage,
  postgresStorage,
  s3Storage,
  type FileStorage,
} from '../../server/storage/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { startLoopbackS3, type LoopbackS3 } from '../helpers/s3.ts';

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const bytes = (n: number, seed = 1) => {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i += 1) out[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return out;
};
/** A stream of `data` in 64 KiB pieces, as a request body arrives. */
const streamOf = (data: Buffer) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += 65536) yield data.subarray(i, i + 65536);
    })(),
  );
const read = async (stream: Readable) => {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
};

let testDb: TestDb;
let s3: LoopbackS3;
const dirs: string[] = [];
const opened: FileStorage[] = [];

beforeAll(async () => {
  testDb = await createTestDb();
  s3 = await startLoopbackS3();
});
afterAll(async () => {
  for (const s of opened) await s.close();
  await s3?.close();
  await testDb?.drop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const drivers: [string, () => FileStorage][] = [
  [
    'local',
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-local-'));
      dirs.push(dir);
      return localStorage(dir);
    },
  ],
  // Small chunks, so the range reads below cross chunk boundaries.
  ['postgres', () => postgresStorage(testDb.db, { chunkSize: 4096 })],
  ['s3', () => s3Storage(s3.settings)],
];

describe.each(drivers)('the %s driver', (driver, make) => {
  let storage: FileStorage;
  beforeAll(async () => {
    storage = make();
    opened.push(storage);
    // Each driver starts empty (postgres shares the test database with the HTTP tests below).
    for await (const item of storage.list()) await storage.remove(item.key);
  });

  it('stages, commits, reads whole and in ranges, lists, stats and removes', async () => {
    const data = bytes(20_000);
    const staged = await storage.stage(streamOf(data), { maxBytes: 1_000_000, headBytes: 16 });
    expect(staged.size).toBe(data.length);
    expect(staged.head.equals(data.subarray(0, 16))).toBe(true);
    expect(await storage.stat('2026/11/a.bin')).toBeNull();
    await staged.commit('2026/11/a.bin');
    const whole = await storage.open('2026/11/a.bin');
    expect(whole.size).toBe(data.length);
    expect(sha(await read(whole.stream))).toBe(sha(data));
    for (const [start, end] of [
      [0, 1],
      [4095, 4096],
      [5000, 13_000],
      [19_999, 19_999],
    ] as const) {
      const part = await storage.open('2026/11/a.bin', { start, end });
      expect(part.size).toBe(data.length);
      expect((await read(part.stream)).equals(data.subarray(start, end + 1))).toBe(true);
    }
    expect(await storage.stat('2026/11/a.bin')).toMatchObject({ key: '2026/11/a.bin', size: 20_000 });
    await storage.put('backups/b.dump', streamOf(bytes(10, 2)));
    const listed = [];
    for await (const item of storage.list()) listed.push([item.key, item.size]);
    expect(listed).toEqual([
      ['2026/11/a.bin', 20_000],
      ['backups/b.dump', 10],
    ]);
    const backups = [];
    for await (const item of storage.list('backups/')) backups.push(item.key);
    expect(backups).toEqual(['backups/b.dump']);
    await storage.remove('2026/11/a.bin');
    await storage.remove('2026/11/a.bin');
    expect(await storage.stat('2026/11/a.bin')).toBeNull();
    await expect(storage.open('2026/11/a.bin')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a source that fails before the driver reads it fails the write, and the process lives on', async () => {
    // An export whose database goes away while the driver still makes its temp file or row: the error must
    // reach the put, not end the server as an unhandled 'error' event (vitest fails the run on one).
    const failing = new Readable({ read() {} });
    process.nextTick(() => failing.destroy(new Error('database gone')));
    await expect(storage.put('backups/failed.dump', failing)).rejects.toThrow('database gone');
    expect(await storage.stat('backups/failed.dump')).toBeNull();
    expect(await storage.cleanTemp(new Date(Date.now() + 60_000))).toEqual({ removed: 0, bytes: 0 });
  });

  it('put replaces an object whole', async () => {
    await storage.put('backups/c.dump', streamOf(bytes(5000, 3)));
    await storage.put('backups/c.dump', streamOf(bytes(7, 4)));
    expect((await read((await storage.open('backups/c.dump')).stream)).equals(bytes(7, 4))).toBe(true);
  });

  it('leaves nothing behind for a file too large, a discard, or an upload that died', async () => {
    const before = await storage.cleanTemp(new Date(Date.now() + 60_000));
    expect(before.removed).toBe(0);
    await expect(
      storage.stage(streamOf(bytes(10_000)), { maxBytes: 9_999, headBytes: 4 }),
    ).rejects.toBeInstanceOf(FileTooLargeError);
    const discarded = await storage.stage(streamOf(bytes(100)), { maxBytes: 1000, headBytes: 4 });
    await discarded.discard();
    // Staged and never committed: what an upload whose process died leaves.
    await storage.stage(streamOf(bytes(3000)), { maxBytes: 10_000, headBytes: 4 });
    expect(await storage.cleanTemp(new Date(Date.now() - 60_000))).toEqual({ removed: 0, bytes: 0 });
    expect(await storage.cleanTemp(new Date(Date.now() + 60_000))).toEqual({ removed: 1, bytes: 3000 });
    const keys = [];
    for await (const item of storage.list()) keys.push(item.key);
    expect(keys.some((k) => k.startsWith('2026/'))).toBe(false);
  });
});

describe('local: a temp file that cannot be made', () => {
  it('refuses the write and releases the source (an export holds a database connection until then)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-local-'));
    dirs.push(dir);
    // .tmp is a directory nothing may create files in, even root (a read-only volume, a wrong mount).
    fs.symlinkSync('/proc', path.join(dir, '.tmp'));
    const storage = localStorage(dir);
    let released = false;
    // As an export's source: what it holds goes when it is destroyed.
    const source = new Readable({
      read() {
        this.push('id,name\n');
      },
      destroy(error, done) {
        released = true;
        done(error);
      },
    });
    await expect(storage.put('jobs/exports/x.csv', source)).rejects.toThrow();
    await expect.poll(() => released).toBe(true);
  });
});

describe('s3 multipart', () => {
  it('uploads a file larger than one part in parts and reads it back intact', async () => {
    const storage = s3Storage(s3.settings);
    opened.push(storage);
    const data = crypto.randomBytes(20 * 1024 * 1024);
    const staged = await storage.stage(streamOf(data), { maxBytes: 30 * 1024 * 1024, headBytes: 8 });
    await staged.commit('2026/11/big.bin');
    expect(sha(await read((await storage.open('2026/11/big.bin')).stream))).toBe(sha(data));
    const tail = await storage.open('2026/11/big.bin', { start: data.length - 100, end: data.length - 1 });
    expect((await read(tail.stream)).equals(data.subarray(-100))).toBe(true);
  }, 60_000);
});

describe('s3: a write the store refuses', () => {
  it('fails the write and releases the source (an export holds a database connection until then)', async () => {
    // A bucket the store does not have: every request is refused.
    const storage = s3Storage({ ...s3.settings, bucket: 'no-such-bucket' });
    opened.push(storage);
    let released = false;
    const piece = Buffer.alloc(65536, 'a');
    // As an export's source: endless until read no more, and what it holds goes when it is destroyed.
    const source = new Readable({
      read() {
        this.push(piece);
      },
      destroy(error, done) {
        released = true;
        done(error);
      },
    });
    await expect(storage.put('jobs/exports/x.csv', source)).rejects.toThrow();
    await expect.poll(() => released).toBe(true);
  }, 30_000);
});

describe('postgres: a write the database refuses', () => {
  it('fails the write and releases the source', async () => {
    const gone = await createTestDb();
    await gone.drop();
    const storage = postgresStorage(gone.db);
    let released = false;
    const source = new Readable({
      read() {
        this.push('id,name\n');
      },
      destroy(error, done) {
        released = true;
        done(error);
      },
    });
    await expect(storage.put('jobs/exports/x.csv', source)).rejects.toThrow();
    await expect.poll(() => released).toBe(true);
  });
});

describe('downloads through the files API (STORAGE=postgres)', () => {
  let t: TestApp;
  let admin: string;
  const BOUNDARY = '----storage-test';
  beforeAll(async () => {
    t = await createTestApp({ storage: { ...loadConfig({}).storage, driver: 'postgres' } });
    admin = await t.adminToken();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers ranges with 206, a range past the end with 416, a deleted file with 404', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), bytes(3000, 5)]);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/resources/assets',
      token: admin,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: Buffer.concat([
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n`),
        Buffer.from('Content-Type: application/pdf\r\n\r\n'),
        pdf,
        Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
      ]),
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().data.id as string;
    const url = `/api/v1/resources/assets/${id}/download`;
    const whole = await t.request({ url, token: admin });
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(pdf)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(pdf.length),
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    const part = await t.request({ url, token: admin, headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${pdf.length}`);
    expect(part.rawPayload.equals(pdf.subarray(100, 200))).toBe(true);
    const suffix = await t.request({ url, token: admin, headers: { range: 'bytes=-10' } });
    expect(suffix.rawPayload.equals(pdf.subarray(-10))).toBe(true);
    const past = await t.request({ url, token: admin, headers: { range: `bytes=${pdf.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${pdf.length}`);
    expect(past.json()).toMatchObject({ code: 416, data: null });
    expect(past.headers['content-disposition']).toBeUndefined();
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/resources/assets/${id}`, token: admin })).statusCode,
    ).toBe(200);
    const gone = await t.request({ url, token: admin });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toMatch(/^application\/json/);
    expect(gone.headers['content-disposition']).toBeUndefined();
    const { rows } = await t.db.query('SELECT 1 FROM storage_objects');
    expect(rows).toEqual([]);
  });
});
