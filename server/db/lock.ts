import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * One process per PGlite directory. PGlite runs PostgreSQL in single-user mode inside WebAssembly and writes
 * no `postmaster.pid`, so nothing stops a second process from opening the same files: both then run, each
 * with its own buffers, and one's committed writes are overwritten by the other's. `<dir>.lock` (beside the
 * directory, so it is neither in PGlite's `dumpDataDir()` backups nor in copies of the directory) records
 * the owner: pid, host name, start time, and on Linux the boot id and the process's start tick, which tell
 * a live owner from a reused pid.
 */
export interface LockOwner {
  pid: number;
  hostname: string;
  started: string;
  bootId?: string;
  /** /proc/<pid>/stat field 22: clock ticks from boot to the process's start (Linux). */
  procStart?: string;
  token: string;
}

/** The directory is in use by a live process: an operator message, printed without a stack trace. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly lockFile: string,
    readonly owner: Partial<LockOwner> | null,
  ) {
    const who = owner?.pid
      ? `process ${owner.pid} on host ${owner.hostname ?? '?'} (started ${owner.started ?? '?'})`
      : 'another process that is taking the lock right now';
    super(
      `The database directory ${dir} is in use by ${who}. PGlite allows one process per data directory: ` +
        `stop that process first, or use PostgreSQL (DATABASE_URL) to run several servers. If no such ` +
        `process is running, delete the lock file ${lockFile}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * Locks this process holds (lock file to release): opening a held directory a second time is refused too,
 * and one exit handler releases whatever a forced exit leaves open.
 */
const held = new Map<string, () => void>();
let exitHandler = false;

/** A file's text, or undefined when it cannot be read (absent). */
function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

const bootId = (): string | undefined => readText('/proc/sys/kernel/random/boot_id')?.trim();

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
function procStartOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the recorded owner is certainly gone: it ran on this host, and its pid is dead, belongs to this
 * very process (a restart that got the same pid, as pid 1 in a container does) or to a process started
 * later (a reused pid), or the machine has rebooted since. A lock of another host is never stale.
 */
function isStale(owner: Partial<LockOwner>, lockFile: string): boolean {
  if (owner.hostname !== os.hostname() || typeof owner.pid !== 'number') return false;
  if (owner.pid === process.pid) return !held.has(lockFile);
  const boot = bootId();
  if (owner.bootId && boot && owner.bootId !== boot) return true;
  if (!isAlive(owner.pid)) return true;
  const start = procStartOf(owner.pid);
  return Boolean(owner.procStart && start && owner.procStart !== start);
}

function parseOwner(text: string): Partial<LockOwner> | null {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null; // being written (created, not yet filled) or damaged
  }
}

function tryCreate(lockFile: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = fs.openSync(lockFile, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, `${JSON.stringify(owner, null, 2)}\n`);
    fs.fsyncSync(fd);
  } catch (error) {
    // A full disk, say: leave no empty lock behind for the next start to puzzle over.
    fs.closeSync(fd);
    fs.rmSync(lockFile, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  return true;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Removes a stale lock: under `<lock>.takeover` (created exclusively), so that of two processes finding the
 * same stale lock only one removes it, and never a fresh lock the other has created meanwhile. The caller
 * then tries to create the lock again.
 */
function takeOver(lockFile: string, seen: string): void {
  const guard = `${lockFile}.takeover`;
  try {
    fs.closeSync(fs.openSync(guard, 'wx'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A process that died inside the few statements below leaves the guard behind.
    const age = Date.now() - (fs.statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > 10_000) fs.rmSync(guard, { force: true });
    return;
  }
  try {
    if (readText(lockFile) === seen) fs.rmSync(lockFile, { force: true });
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

/**
 * Takes `<dir>.lock` for this process or throws DataDirLockedError naming the owner. Returns the release
 * function (idempotent; it removes the file only while it is still this process's). Also released when the
 * process exits without closing the database (a forced exit); a crash leaves a stale lock that the next
 * start takes over.
 */
export async function lockDataDir(dir: string): Promise<() => void> {
  dir = path.resolve(dir);
  const lockFile = `${dir}.lock`;
  const owner: LockOwner = {
    pid: process.pid,
    hostname: os.hostname(),
    started: new Date().toISOString(),
    bootId: bootId(),
    procStart: procStartOf(process.pid),
    token: crypto.randomBytes(8).toString('hex'),
  };
  let unreadableSince = 0;
  for (let attempt = 0; ; attempt++) {
    if (held.has(lockFile)) throw new DataDirLockedError(dir, lockFile, owner);
    if (tryCreate(lockFile, owner)) break;
    const text = readText(lockFile);
    const current = text === undefined ? null : parseOwner(text);
    if (attempt > 100) throw new DataDirLockedError(dir, lockFile, current);
    if (text === undefined) continue; // released meanwhile: create again
    if (current === null) {
      // Created but not yet written by a process starting at this very moment, or left empty by a crash.
      unreadableSince ||= Date.now();
      const age = Date.now() - (fs.statSync(lockFile, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10_000) takeOver(lockFile, text);
      else if (Date.now() - unreadableSince > 2_000) throw new DataDirLockedError(dir, lockFile, null);
      else await pause(50);
      continue;
    }
    if (!isStale(current, lockFile)) throw new DataDirLockedError(dir, lockFile, current);
    takeOver(lockFile, text);
    if (attempt) await pause(20);
  }
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    held.delete(lockFile);
    try {
      const text = readText(lockFile);
      if (text !== undefined && parseOwner(text)?.token === owner.token) fs.rmSync(lockFile, { force: true });
    } catch {
      // unreadable now: the next start judges it (a dead pid is taken over)
    }
  };
  held.set(lockFile, release);
  if (!exitHandler) {
    exitHandler = true;
    process.on('exit', () => {
      for (const releaseOne of [...held.values()]) releaseOne();
    });
  }
  return release;
}
