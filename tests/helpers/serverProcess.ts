import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/lib/pg-cluster.ts';
import { eventually, giveUp } from './eventually.ts';

/**
 * What every test server runs with: this loopback port, its own DATA_DIR, no log file and no built app
 * (DIST_DIR points nowhere, so a start never waits on a build). `port` '0' lets an in-process server pick one.
 *
 * @example
 * spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env: { ...process.env, ...serverTestEnv(dir, port) } });
 */
export function serverTestEnv(
  dataDir: string,
  port: number | string,
  logLevel = 'warn',
): Record<string, string> {
  return {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_TO_FILE: '0',
    LOG_LEVEL: logLevel,
    DIST_DIR: '/nonexistent-dist',
  };
}

export interface ServerProcess {
  baseURL: string;
  /** The server's own process id (node runs it directly, no wrapper), for /proc readings. */
  pid: number;
  /** Resident memory now, in bytes (Linux /proc). */
  rss(): number;
  /** Peak resident memory since the last `resetPeak()` (or the start), in bytes. */
  peakRss(): number;
  /** Starts a new peak measurement (writes 5 to /proc/<pid>/clear_refs). */
  resetPeak(): void;
  /** Its stdout and stderr so far (for a failure message). */
  output(): string;
  /** Sends a signal to the server (SIGTERM to drain it, SIGKILL to crash it). */
  kill(signal: NodeJS.Signals): void;
  /** Resolves once the process has exited, with its exit code (or the signal that ended it). */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

/**
 * `server/main.ts` in a process of its own (`node --import tsx`, so the pid is the server's) on a free
 * loopback port with a temp DATA_DIR, the given environment on top; resolves once /api/health/ready answers.
 * Example: `const a = await startServerProcess({ DATABASE_URL: url, STORAGE: 'postgres' })`. `cwd` runs
 * another copy of the project (its server/main.ts, resources and migrations); `readyMs` is how long a start
 * may take (90 s by default).
 */
export async function startServerProcess(
  env: Record<string, string>,
  { cwd, readyMs = 90_000 }: { cwd?: string; readyMs?: number } = {},
): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-node-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      ...serverTestEnv(dataDir, port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  // Set by stop() and kill(): any other end is the server's own (a crash, the kernel's OOM killer), and its
  // last output goes to the test run's stderr, since a test then fails far from the cause (a refused fetch).
  let ended = false;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      if (!ended)
        process.stderr.write(
          `[serverProcess] the server at ${baseURL} (pid ${child.pid}) ended on its own ` +
            `(code ${code}, signal ${signal}); its last output:\n${out}\n`,
        );
      resolve({ code, signal });
    });
  });
  const collect = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const status = (key: string) => {
    const text = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
  };
  const stop = async () => {
    ended = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(force);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw giveUp(new Error(`server exited (${child.exitCode}):\n${out}`));
        const res = await fetch(`${baseURL}/api/health/ready`); // rejects while it is not listening yet
        if (!res.ok) throw new Error(`ready answered ${res.status}`);
      },
      { timeoutMs: readyMs, intervalMs: 200, what: `the server at ${baseURL} to be ready` },
    );
  } catch (err) {
    if (child.exitCode !== null) throw err;
    await stop();
    throw new Error(`server not ready at ${baseURL}:\n${out}`, { cause: err });
  }
  return {
    baseURL,
    pid: child.pid!,
    rss: () => status('VmRSS'),
    peakRss: () => status('VmHWM'),
    resetPeak: () => fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5'),
    output: () => out,
    kill: (signal) => {
      ended = true;
      child.kill(signal);
    },
    exited: () => exit,
    stop,
  };
}
