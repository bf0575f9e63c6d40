/**
 * `npm run bench:startup [-- --runs 3] [--data-dir <existing DATA_DIR>] [--tsx]`: cold start of the server on an
 * existing PGlite directory as `npm start` runs it (scripts/start.mjs: the compiled build in dist-server/),
 * against its baseline (issue 37 item 3): a bare script that opens the same directory with PGlite and serves a
 * health route with Fastify (bench/lib/bareStartup.mjs), interleaved round by round in one run. `--tsx` adds
 * the way `npm start` ran before (scripts/start.ts transpiled by tsx at every start).
 *
 * For each start it prints the `startup_ms` the server logs (process start to listening, builds excluded),
 * the wall time from spawning the process to the first 200 on /api/health, and the CPU time the process had
 * used by then (user + system, from /proc): on a loaded machine the CPU time is the steadier figure.
 * A first start creates the database (and builds dist/ and dist-server/ when stale, and writes the V8 code
 * cache the compiled starts then load, as every start after the first of a build does) and is not counted.
 * Printed: each variant's medians, and the compiled start's ratio to the bare script (median of the
 * per-round ratios, wall and CPU; target <= 1.3x), and to the bare script holding its event loop until it
 * listens as scripts/start.ts does (`--hold-loop`: without it node stalls the first answer of both). `--cpu-prof <dir>`: the compiled start writes a V8 CPU
 * profile there when it stops. Figures only; the targets (<= 3 s, <= 1.3x) are shown, never asserted.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../scripts/lib/frontend.ts';
import { freePort } from '../scripts/lib/pg-cluster.ts';
import { startServerProcess } from './lib/serverProcess.ts';
import { median } from './lib/stats.ts';

const TARGET_MS = 3000;
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 3) : 3;
const say = (line: string): void => void process.stdout.write(`[bench:startup] ${line}\n`);

const TARGET_RATIO = 1.3;
const profArg = process.argv.indexOf('--cpu-prof');
const profDir = profArg > 0 ? path.resolve(process.argv[profArg + 1] ?? 'startup-profiles') : null;
const VARIANTS = {
  'bare PGlite + Fastify': [process.execPath, 'bench/lib/bareStartup.mjs'],
  'bare, loop held': [process.execPath, 'bench/lib/bareStartup.mjs', '--hold-loop'],
  'compiled (npm start)': [
    process.execPath,
    ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
    'scripts/start.mjs',
  ],
  'tsx (before)': [path.join(repoRoot, 'node_modules', '.bin', 'tsx'), 'scripts/start.ts'],
} as const;
type Variant = keyof typeof VARIANTS;
const withTsx = process.argv.includes('--tsx');

interface Sample {
  startupMs: number | null;
  /** PGlite statements run by the start-up and their time (the `server started` line), null for the bare script. */
  statements: number | null;
  statementsMs: number | null;
  wallMs: number;
  cpuMs: number | null;
}

const dirArg = process.argv.indexOf('--data-dir');
/** `--data-dir <dir>`: an existing DATA_DIR to start on (kept); by default a temp one, created first. */
const givenDir = dirArg > 0 ? path.resolve(process.argv[dirArg + 1] ?? '') : null;
const dataDir = givenDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-startup-'));
try {
  say(`data directory ${dataDir}; the first start (not counted) creates the database if needed ...`);
  const first = await startOnce('compiled (npm start)');
  say(`first start: ${(first.wallMs / 1000).toFixed(1)} s`);
  const samples: Record<Variant, Sample[]> = {
    'bare PGlite + Fastify': [],
    'bare, loop held': [],
    'compiled (npm start)': [],
    'tsx (before)': [],
  };
  const names = (Object.keys(VARIANTS) as Variant[]).filter((n) => withTsx || n !== 'tsx (before)');
  for (let round = 0; round < runs; round++) {
    // Alternate which goes first, so neither always starts right after the other's shutdown.
    for (const name of round % 2 ? [...names].reverse() : names) {
      const sample = await startOnce(name);
      samples[name].push(sample);
      say(
        `round ${round + 1} ${name}: startup_ms ${sample.startupMs ?? '?'}, to first 200 ${Math.round(sample.wallMs)} ms, ` +
          `cpu ${sample.cpuMs ?? '?'} ms` +
          (sample.statements === null
            ? ''
            : `, ${sample.statements} statements at start-up in ${sample.statementsMs} ms`) +
          `, load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
  }
  process.stdout.write(
    `\nCold start on an existing PGlite directory (median of ${runs}; load average ${os.loadavg()[0]!.toFixed(1)} ` +
      `on ${os.cpus().length} cores)\n` +
      `  ${'variant'.padEnd(22)} ${'startup_ms'.padStart(11)} ${'first 200'.padStart(11)} ${'cpu ms'.padStart(9)}   target\n`,
  );
  for (const name of names) {
    const list = samples[name];
    const wall = median(list.map((s) => s.wallMs));
    process.stdout.write(
      `  ${name.padEnd(22)} ${fmt(median(list.flatMap((s) => s.startupMs ?? []))).padStart(11)} ` +
        `${fmt(wall).padStart(11)} ${fmt(median(list.flatMap((s) => s.cpuMs ?? []))).padStart(9)}   ` +
        `first 200 <= ${TARGET_MS} ms: ${wall <= TARGET_MS ? 'ok' : 'over'}\n`,
    );
  }
  const compiled = samples['compiled (npm start)'];
  const ratio = (baseline: Variant, of: (s: Sample) => number | null) =>
    median(
      compiled.flatMap((s, i) => {
        const base = samples[baseline][i];
        return of(s) && base && of(base) ? [of(s)! / of(base)!] : [];
      }),
    );
  const wallRatio = ratio('bare PGlite + Fastify', (s) => s.wallMs);
  const counted = compiled.filter((s) => s.statements !== null);
  if (counted.length)
    process.stdout.write(
      `  compiled start-up statements (PGlite): ${median(counted.map((s) => s.statements!))} in ` +
        `${fmt(median(counted.map((s) => s.statementsMs!)))} ms (median)\n`,
    );
  process.stdout.write(
    `  compiled / bare: first 200 ${wallRatio.toFixed(2)}x, cpu ` +
      `${ratio('bare PGlite + Fastify', (s) => s.cpuMs).toFixed(2)}x   ` +
      `target <= ${TARGET_RATIO}x: ${wallRatio <= TARGET_RATIO ? 'ok' : 'over'}\n` +
      `  compiled / bare with its loop held as the product's is: first 200 ` +
      `${ratio('bare, loop held', (s) => s.wallMs).toFixed(2)}x, cpu ` +
      `${ratio('bare, loop held', (s) => s.cpuMs).toFixed(2)}x\n`,
  );
} finally {
  if (!givenDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Starts one server, waits for the first 200 on /api/health, reads its CPU time, stops it (SIGTERM). */
async function startOnce(name: Variant): Promise<Sample> {
  const port = await freePort();
  const [command, ...args] = VARIANTS[name];
  const server = await startServerProcess({
    command,
    args,
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_TO_FILE: '0',
      ADMIN_PASSWORD: 'bench-startup-password-1',
    },
    port,
  });
  try {
    const cpuMs = server.child.pid ? cpuTimeMs(server.child.pid) : null;
    // The `server started` line may reach the pipe just after the first answer: wait for it a little.
    const seen = (re: RegExp) => re.exec(server.output());
    const logs = !name.startsWith('bare');
    for (let waited = 0; logs && !seen(/"startup_ms":\d+/) && waited < 2000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const number = (re: RegExp) => {
      const found = seen(re);
      return found ? Number(found[1]) : null;
    };
    return {
      startupMs: number(/"startup_ms":(\d+)/),
      statements: number(/"startup_statements":(\d+)/),
      statementsMs: number(/"startup_statements_ms":(\d+)/),
      wallMs: server.wallMs,
      cpuMs,
    };
  } finally {
    await server.stop();
  }
}

/**
 * User + system CPU time of `pid` and its waited-for children (/proc/<pid>/stat fields 14-17, in clock ticks
 * of 10 ms), plus the same for its live children (the tsx variant runs node under a tsx launcher).
 */
function cpuTimeMs(pid: number): number | null {
  const ticks = (p: number): number => {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] is field 3 (state): utime, stime, cutime, cstime are fields 14-17.
      return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    } catch {
      return 0;
    }
  };
  const children = (p: number): number[] => {
    try {
      return fs
        .readFileSync(`/proc/${p}/task/${p}/children`, 'utf8')
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  };
  if (!fs.existsSync(`/proc/${pid}/stat`)) return null;
  const all: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const p = queue.pop()!;
    all.push(p);
    queue.push(...children(p));
  }
  return all.reduce((sum, p) => sum + ticks(p), 0) * 10;
}

function fmt(ms: number): string {
  return Number.isNaN(ms) ? '?' : String(Math.round(ms));
}
