import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DROPPED_LINES_MSG, logFileFor } from '../../server/core/logger.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

/**
 * Issue 28, item 4: a real full disk under a real server process. DATA_DIR (PGlite database, log file,
 * uploads) lives on a small tmpfs mounted for this file, then a filler file takes every byte left. Writes
 * that need space answer 507 in the envelope (never a 500), reads keep answering 200, the process and its
 * log file stream stay alive; once the filler is deleted writes work again without a restart and the log
 * file says how many lines it dropped.
 *
 * Skipped under DATABASE_URL: PostgreSQL's data directory is not under DATA_DIR, so this cannot fill it
 * (its disk_full, SQLSTATE 53100, takes the same mapping as PGlite's). Skipped unless running as root, which
 * `mount -t tmpfs` needs (CI runs as root); `ulimit -f` is no substitute: it gives EFBIG and a SIGXFSZ, not
 * ENOSPC. Skipped too when the mount itself is refused (a container without CAP_SYS_ADMIN).
 */
const isRoot = process.getuid?.() === 0;
const SIZE = '160m';
const ADMIN = { username: 'admin', password: 'full disk test password 1' };

let mountPoint = '';
let mountError: string | null = null;
let server: ServerProcess | null = null;
let token = '';

const call = (method: string, url: string, body?: unknown, language = 'en') =>
  fetch(`${server!.baseURL}/api/${url}`, {
    method,
    headers: {
      accept: 'application/json',
      'accept-language': language,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

let serial = 0;
/** A new dictionary type with a few entries: a row in each of two tables and their indexes. */
const createType = (language = 'en') => {
  serial += 1;
  return call(
    'POST',
    'v1/dictionary/types',
    {
      name: `Full disk ${serial} ${'x'.repeat(80)}`,
      slug: `full_disk_${serial}`,
      data: Array.from({ length: 8 }, (_, i) => ({
        label: `Entry ${i} ${'y'.repeat(80)}`,
        value: `v${i}`,
        memo: 'z'.repeat(200),
      })),
    },
    language,
  );
};

const BOUNDARY = '----full-disk-test';
const upload = (bytes: number) => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(bytes, 0x41)]);
  return fetch(`${server!.baseURL}/api/v1/resources/assets`, {
    method: 'POST',
    headers: {
      accept: 'application/json',
      'accept-language': 'en',
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    body: Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n`),
      Buffer.from('Content-Type: application/pdf\r\n\r\n'),
      pdf,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  });
};

const filler = () => path.join(mountPoint, 'filler');
/** Takes every byte left on the tmpfs (1 MiB writes, then 4 KiB ones, until ENOSPC). */
function fill(): void {
  const fd = fs.openSync(filler(), 'a');
  try {
    for (const size of [1 << 20, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      try {
        for (;;) fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Files under the uploads directory (the temp ones included), relative. */
const uploadedFiles = () => {
  const dir = path.join(mountPoint, 'uploads');
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(dir, f)).isFile(),
  );
};

const isAlive = () => {
  try {
    process.kill(server!.pid, 0);
    return true;
  } catch {
    return false;
  }
};

const logLines = () =>
  fs
    .readFileSync(logFileFor(path.join(mountPoint, 'logs'), new Date()), 'utf8')
    .split('\n')
    .filter(Boolean);

describe.skipIf(!!process.env.DATABASE_URL || !isRoot)('a full disk under DATA_DIR (PGlite)', () => {
  beforeAll(async () => {
    mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-full-disk-'));
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', mountPoint], { stdio: 'pipe' });
    } catch (error) {
      mountError = `mount -t tmpfs refused: ${(error as { stderr?: Buffer }).stderr?.toString().trim()}`;
      return;
    }
    // The run's migrated template (tests/setup/db-template.ts) saves the server migrating from scratch.
    const root = inject('pgliteTemplateRoot');
    if (root) fs.cpSync(path.join(root, 'template'), path.join(mountPoint, 'db'), { recursive: true });
    server = await startServerProcess(
      {
        DATA_DIR: mountPoint,
        LOG_TO_FILE: '1',
        LOG_LEVEL: 'info',
        STORAGE: 'local',
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
      },
      { readyMs: 180_000 },
    );
    const res = await call('POST', 'v1/user/login', { ...ADMIN, remember: false });
    expect(res.status).toBe(200);
    token = ((await res.json()) as { data: { access_token: string } }).data.access_token;
  }, 240_000);

  afterAll(async () => {
    // Stop the server before unmounting (its database files are open there), whatever failed.
    await server?.stop().catch(() => undefined);
    if (mountPoint && !mountError) {
      try {
        execFileSync('umount', [mountPoint], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', mountPoint], { stdio: 'pipe' });
      }
    }
    if (mountPoint) fs.rmSync(mountPoint, { recursive: true, force: true });
  }, 60_000);

  it('answers 507 to writes that need space, keeps serving reads and stays alive', async (ctx) => {
    if (mountError) ctx.skip(mountError);
    expect((await createType()).status).toBe(201);
    fill();
    expect(fs.statfsSync(mountPoint).bavail).toBe(0);

    // Writes go on until one needs a new block (a row's page or an index page may still have room).
    const statuses: number[] = [];
    let full: Response | null = null;
    for (let i = 0; i < 300 && !full; i++) {
      const res = await createType();
      statuses.push(res.status);
      if (res.status !== 201) full = res;
    }
    expect(full, `no write failed: ${statuses.join(',')}`).not.toBeNull();
    expect(statuses.filter((s) => s !== 201)).toEqual([507]);
    expect(await full!.json()).toEqual({
      code: 507,
      message: 'The server is out of storage space; nothing was saved. Please try again later',
      data: null,
    });
    const zh = await createType('zh-CN');
    expect(zh.status).toBe(507);
    expect(await zh.json()).toEqual({
      code: 507,
      message: '服务器存储空间不足，本次操作未保存，请稍后重试',
      data: null,
    });

    // Reads: the list, a record, readiness, the signed-in user.
    const list = await call('GET', 'v1/dictionary/types?page=1&size=5');
    expect(list.status).toBe(200);
    const first = ((await list.json()) as { data: { data: { id: string }[] } }).data.data[0]!;
    expect((await call('GET', `v1/dictionary/types/${first.id}`)).status).toBe(200);
    expect((await call('GET', 'health/ready')).status).toBe(200);
    expect((await call('GET', 'v1/user/profile')).status).toBe(200);

    // An upload: 507, and no partial file left under uploads/ (.tmp included).
    const up = await upload(256 * 1024);
    expect(up.status).toBe(507);
    expect(await up.json()).toMatchObject({ code: 507, data: null });
    // The rest of its body was never read: the connection closes rather than stall the next request on it.
    expect(up.headers.get('connection')).toBe('close');
    expect(uploadedFiles()).toEqual([]);

    // Still the same process, still answering; the log file took no new line (nothing fits) or a cut one.
    expect(isAlive()).toBe(true);
    expect((await call('GET', 'health')).status).toBe(200);
    expect(server!.output()).toMatch(/"msg":"request failed"/);
  }, 120_000);

  it('recovers by itself once space is freed, and the log file notes the lines it dropped', async (ctx) => {
    if (mountError) ctx.skip(mountError);
    fs.rmSync(filler());
    const res = await createType();
    expect(res.status).toBe(201);
    const up = await upload(256 * 1024);
    expect(up.status).toBe(201);
    expect(uploadedFiles().filter((f) => !f.startsWith('.tmp'))).toHaveLength(1);
    expect(uploadedFiles().filter((f) => f.startsWith('.tmp'))).toEqual([]);
    expect(isAlive()).toBe(true);

    // The note comes before the first line written after space returned, and counts what was lost.
    await expect
      .poll(() => logLines().some((l) => l.includes(DROPPED_LINES_MSG)), { timeout: 10_000 })
      .toBe(true);
    const lines = logLines();
    const at = lines.findIndex((l) => l.includes(DROPPED_LINES_MSG));
    const note = JSON.parse(lines[at]!) as { level: string; dropped: number; reason: string };
    expect(note).toMatchObject({ level: 'warn', reason: 'ENOSPC' });
    expect(note.dropped).toBeGreaterThan(1);
    // Every line after it is whole JSON (a line the disk cut short may only come before it).
    const after = lines.slice(at + 1);
    expect(after.length).toBeGreaterThan(0);
    for (const line of after) expect(() => JSON.parse(line) as unknown).not.toThrow();
    // The logs page reads the note too.
    const page = await call(
      'GET',
      `v1/system/logs?level=warn&text=${encodeURIComponent('log lines dropped')}`,
    );
    expect(page.status).toBe(200);
    const entries = ((await page.json()) as { data: { data: { msg: string }[] } }).data.data;
    expect(entries.map((e) => e.msg)).toContain(DROPPED_LINES_MSG);
  }, 120_000);
});
