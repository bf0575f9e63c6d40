import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findBindir } from '../../scripts/lib/pg-cluster.ts';
import { replacePlaceholders } from '../../server/db/postgres.ts';
import { EXPORT_SETTINGS } from '../../server/engine/csv/format.ts';

/** The export's client, in a process of its own: the server's CPU and RSS are then the server's alone. */
const CLIENT = `
const headers = { authorization: 'Bearer ' + process.env.BENCH_TOKEN, 'accept-encoding': process.env.BENCH_ENCODING || 'identity' };
if (process.env.BENCH_LANG) headers['accept-language'] = process.env.BENCH_LANG;
const res = await fetch(process.env.BENCH_URL, { headers });
if (res.status !== 200) {
  console.log(JSON.stringify({ error: res.status + ' ' + (await res.text()).slice(0, 200) }));
} else {
  let bytes = 0, lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
  }
  const cpu = process.cpuUsage();
  console.log(JSON.stringify({ bytes, lines, cpu: (cpu.user + cpu.system) / 1e6 }));
}`;

export interface HttpExportResult {
  /** Data rows (lines minus the header). */
  rows: number;
  bytes: number;
  seconds: number;
  /** CPU seconds the client process spent (fetching, inflating, counting lines). */
  clientCpu: number;
  /** Peak growth of this process's RSS while the export ran (the server's, when it runs in this process). */
  rssGrowth: number;
  /** This process's RSS and VmHWM (its peak RSS so far, /proc/self/status) before and after, in bytes. */
  memory: { rssBefore: number; rssAfter: number; hwmBefore: number; hwmAfter: number };
}

/** VmRSS of this process in bytes, as /proc/self/status gives it (0 where /proc is not there). */
export function vmRss(): number {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** VmHWM of this process in bytes (0 where /proc is not there). */
export function vmHwm(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * `GET <url>` (a CSV export) read by a client in another process, which counts bytes and lines; the wall
 * time covers the whole download. Throws when the export does not answer 200.
 */
export async function httpExport(
  url: string,
  token: string,
  { lang, encoding }: { lang?: string; encoding?: string } = {},
): Promise<HttpExportResult> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  const hwmBefore = vmHwm();
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--input-type=module', '-e', CLIENT], {
    env: {
      ...process.env,
      BENCH_URL: url,
      BENCH_TOKEN: token,
      BENCH_LANG: lang ?? '',
      BENCH_ENCODING: encoding ?? '',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const result = JSON.parse(out || '{"error":"no output"}') as {
    bytes: number;
    lines: number;
    cpu: number;
    error?: string;
  };
  if (result.error) throw new Error(`export answered ${result.error}`);
  global.gc?.();
  const memory = { rssBefore: base, rssAfter: process.memoryUsage().rss, hwmBefore, hwmAfter: vmHwm() };
  return {
    rows: result.lines - 1,
    bytes: result.bytes,
    seconds,
    clientCpu: result.cpu,
    rssGrowth: peak - base,
    memory,
  };
}

/**
 * The product's SELECT for psql: its parameters (labels, label maps, the time zone; no filters here) inlined
 * as quoted literals (each is cast where it is used), and the session settings it relies on.
 */
export function inlineForPsql(
  sql: string,
  params: unknown[],
  settings: Readonly<Record<string, string>> = EXPORT_SETTINGS,
): string {
  const text = replacePlaceholders(sql, (n) => `'${String(params[n - 1]).replace(/'/g, "''")}'`);
  const sets = Object.entries(settings).map(([k, v]) => `SET "${k}" = '${v}';`);
  return `${sets.join('\n')}\n${text.replace(/\n/g, ' ')}`;
}

/** `psql \copy (<select>) TO STDOUT WITH (FORMAT csv)` into a pipe that only counts lines. */
export async function psqlCopy(url: string, select: string): Promise<{ rows: number; seconds: number }> {
  const lines = select.split('\n');
  const body = lines.filter((l) => !l.startsWith('SET ')).join(' ');
  const sets = lines.filter((l) => l.startsWith('SET ')).join('\n');
  const script = `${sets}\n\\copy (${body}) TO STDOUT WITH (FORMAT csv)\n`;
  const t0 = performance.now();
  const child = spawn(path.join(findBindir(), 'psql'), ['-X', '-q', '-v', 'ON_ERROR_STOP=1', url], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin.end(script);
  let rows = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`psql exited with ${code}`);
  return { rows, seconds: (performance.now() - t0) / 1000 };
}

/** CPU seconds (user + system) spent so far, by side, from /proc. */
export interface CpuSpent {
  /** This process (the server, in the bench's process) and its reaped children (download clients, psql). */
  bench: number;
  /** The PostgreSQL server: its postmaster, its live processes and those that have ended. */
  postgres: number;
}

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** Fields 3.. of /proc/<pid>/stat (after the command name, which may hold spaces), or null. */
function procStat(pid: number | 'self'): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime + stime (+ cutime + cstime: the reaped children's), in seconds; fields 14-17 of stat. */
function cpuOf(fields: string[], withChildren: boolean): number {
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return (utime! + stime! + (withChildren ? cutime! + cstime! : 0)) / TICKS;
}

/**
 * A reader of the CPU time this machine spends on an export, both sides: the bench's process with its reaped
 * children, and the PostgreSQL server behind `backendPid` (`SELECT pg_backend_pid()`): its postmaster with the
 * processes that have ended (cutime) and every live child. A backend that ends between two readings moves from
 * the live children to the postmaster's cutime, so differences stay right once the postmaster has reaped it:
 * read a moment after the work ends. Null where /proc cannot tell (another machine's server, another OS).
 */
export function cpuReader(backendPid: number): (() => CpuSpent) | null {
  const postmaster = Number(procStat(backendPid)?.[1]);
  if (!procStat('self') || !Number.isInteger(postmaster) || !procStat(postmaster)) return null;
  return () => {
    let postgres = cpuOf(procStat(postmaster) ?? [], true);
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const fields = procStat(Number(entry));
      if (fields && Number(fields[1]) === postmaster) postgres += cpuOf(fields, false);
    }
    return { bench: cpuOf(procStat('self')!, true), postgres };
  };
}
