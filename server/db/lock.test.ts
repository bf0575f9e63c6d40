import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './lock.ts';

/**
 * The PGlite directory lock without PGlite: `<dir>.lock` files written by hand stand for other processes,
 * and child processes race for one directory. tests/integration/pglite-lock.test.ts runs real servers.
 */
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-lock-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;
const newDir = () => path.join(root, `db-${++n}`);
const writeLock = (dir: string, owner: Record<string, unknown>) =>
  fs.writeFileSync(
    `${dir}.lock`,
    JSON.stringify({ hostname: os.hostname(), started: '2026-01-01T00:00:00Z', ...owner }),
  );
const ownerOf = (dir: string) =>
  JSON.parse(fs.readFileSync(`${dir}.lock`, 'utf8')) as Record<string, unknown>;

describe('lockDataDir', () => {
  it('records pid, host and start time, refuses a second open in this process, releases once', async () => {
    const dir = newDir();
    const release = await lockDataDir(dir);
    expect(ownerOf(dir)).toMatchObject({ pid: process.pid, hostname: os.hostname() });
    await expect(lockDataDir(dir)).rejects.toThrow(DataDirLockedError);
    release();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    const again = await lockDataDir(dir);
    release(); // a release already done leaves the new owner's lock alone
    expect(ownerOf(dir)).toMatchObject({ pid: process.pid });
    again();
  });

  it("refuses a live owner's lock, naming its pid, host, the directory and the lock file", async () => {
    const dir = newDir();
    writeLock(dir, { pid: process.ppid });
    const error = (await lockDataDir(dir).catch((e: unknown) => e)) as DataDirLockedError;
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect(error.message).toContain(
      `The database directory ${dir} is in use by process ${process.ppid} on host`,
    );
    expect(error.message).toContain(`delete the lock file ${dir}.lock`);
    expect(ownerOf(dir)).toMatchObject({ pid: process.ppid });
  });

  it("refuses another host's lock even when that pid is dead here (the directory may be shared)", async () => {
    const dir = newDir();
    writeLock(dir, { pid: 2 ** 22 + 1, hostname: `not-${os.hostname()}` });
    await expect(lockDataDir(dir)).rejects.toThrow(/in use by process 4194305 on host not-/);
  });

  it('takes over a lock whose pid is dead, is this process (a restart with the same pid) or was reused', async () => {
    const cases: Record<string, unknown>[] = [
      { pid: 2 ** 22 + 1 }, // above Linux's pid_max: never alive
      { pid: process.pid },
      { pid: process.ppid, procStart: '1' }, // alive, but not the process that wrote the lock
    ];
    if (fs.existsSync('/proc/sys/kernel/random/boot_id'))
      cases.push({ pid: process.ppid, bootId: 'an-old-boot' });
    for (const stale of cases) {
      const dir = newDir();
      writeLock(dir, stale);
      const release = await lockDataDir(dir);
      expect(ownerOf(dir)).toMatchObject({ pid: process.pid });
      release();
    }
  });

  it('refuses a lock being written, and takes over one left empty long ago', async () => {
    const dir = newDir();
    fs.writeFileSync(`${dir}.lock`, '');
    await expect(lockDataDir(dir)).rejects.toThrow(/in use by another process that is taking the lock/);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${dir}.lock`, old, old);
    const release = await lockDataDir(dir);
    release();
  });

  it.each([
    ['no lock', false],
    ['a stale lock (dead pid)', true],
  ])(
    'lets exactly one of several processes starting at once take the lock, over %s',
    async (_, stale) => {
      const dir = newDir();
      if (stale) writeLock(dir, { pid: 2 ** 22 + 1 });
      const url = new URL('./lock.ts', import.meta.url).href;
      // Each child loads the module, says so, and tries the lock when told to: all of them at the same moment.
      const script =
        `const { lockDataDir } = await import(${JSON.stringify(url)});` +
        `process.stdin.once('data', async () => {` +
        `  try { await lockDataDir(${JSON.stringify(dir)}); console.log('locked'); }` +
        `  catch (e) { console.log(e.name); process.exit(3); } });` +
        `console.log('ready');`;
      const children = Array.from({ length: 4 }, () =>
        spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          stdio: ['pipe', 'pipe', 'inherit'],
        }),
      );
      const lines = children.map((child) => {
        const waiting: ((line: string) => void)[] = [];
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          for (let i = out.indexOf('\n'); i >= 0; i = out.indexOf('\n')) {
            waiting.shift()?.(out.slice(0, i));
            out = out.slice(i + 1);
          }
        });
        return () => new Promise<string>((resolve) => waiting.push(resolve));
      });
      const nextLines = () => Promise.all(lines.map((next) => next()));
      expect(await nextLines()).toEqual(['ready', 'ready', 'ready', 'ready']);
      const answers = nextLines();
      for (const child of children) child.stdin.write('go\n');
      const said = await answers;
      expect([...said].sort()).toEqual([
        'DataDirLockedError',
        'DataDirLockedError',
        'DataDirLockedError',
        'locked',
      ]);
      const winner = children[said.indexOf('locked')]!;
      expect(ownerOf(dir)).toMatchObject({ pid: winner.pid });
      const exited = new Promise((resolve) => winner.once('exit', resolve));
      winner.stdin.end(); // lets it exit: the exit handler releases the lock
      await exited;
      expect(fs.existsSync(`${dir}.lock`)).toBe(false);
    },
    60_000,
  );
});
