/**
 * `npx tsx bench/throughput.ts [--before <dir>]`: the product's per-request cost as a ratio against a bare
 * Fastify + pg route serving the same answer, each server in a process of its own (bench/lib/throughputServer.ts)
 * over one throwaway PostgreSQL 15 (or DATABASE_URL) holding THROUGHPUT_ROWS users (default 20,000: past
 * ESTIMATE_FLOOR, so the total is the planner's estimate). Two cases: the users list's first page (signed in
 * with a bearer token; the bare route sends the statements the engine sends and answers the same envelope),
 * and `/api/health` against a plain Fastify health route.
 * Load: a closed loop of THROUGHPUT_CONNECTIONS (20) keep-alive connections from this process (autocannon is
 * not installed), `accept-encoding: identity` on both sides (the bare route compresses nothing), for
 * THROUGHPUT_SECONDS (5) per round after a warm-up of THROUGHPUT_WARM_UP_SECONDS (5, for the JIT);
 * THROUGHPUT_PAIRS (6) interleaved rounds, the order alternating. Like a browser, the client sends back the cookies the server's first answer set (the XSRF
 * cookie). Printed: requests/s per round, the ratio product / bare of each pair and their median.
 * The product runs at its default log level (LOG_LEVEL, info), logging to stdout (a pipe this process drains,
 * as a supervisor does) and to DATA_DIR/logs.
 * `--before <dir>`: also runs the product from another checkout's files (server/, resources/, schemas/,
 * locales/, e.g. `git archive <commit>` unpacked with a node_modules link) in the same rounds, for a before
 * and after in one run (also a copy with one duty taken out, to price it: docs/operations.md, issue 37 fourth
 * round). `THROUGHPUT_CPU_PROF=<dir>`: each server writes a V8 CPU profile there when it stops.
 * `THROUGHPUT_CASES=list` (or `health`): only that case. Each pair's line ends with the load average then.
 * With `--before`, the summary also gives product / before from the same pairs (requests/s, and CPU per request).
 * Figures only, never a pass or fail.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ensureFirstAdmin } from '../server/bootstrap.ts';
import { migrate } from '../server/db/migrate.ts';
import { users } from '../resources/users.ts';
import { freePort } from '../scripts/lib/pg-cluster.ts';
import { repoRoot } from '../scripts/lib/frontend.ts';
import { adminToken, openBenchDb } from './lib/db.ts';
import { median } from './lib/stats.ts';

const ROWS = Number(process.env.THROUGHPUT_ROWS ?? 20_000);
const CONNECTIONS = Number(process.env.THROUGHPUT_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.THROUGHPUT_SECONDS ?? 5);
const PAIRS = Number(process.env.THROUGHPUT_PAIRS ?? 6);
const WARM_UP_SECONDS = Number(process.env.THROUGHPUT_WARM_UP_SECONDS ?? 5);
const beforeArg = process.argv.indexOf('--before');
const beforeRoot = beforeArg > 0 ? path.resolve(process.argv[beforeArg + 1] ?? '') : null;
const say = (line: string) => process.stdout.write(`[bench:throughput] ${line}\n`);

const bench = await openBenchDb('postgres', 'bench-throughput-');
const servers: Server[] = [];
try {
  await migrate(bench.db);
  await ensureFirstAdmin(bench.db, { username: 'admin', password: 'bench-password-123' });
  await bench.db.query(
    `INSERT INTO users (username, name, email, state, created_at, updated_at)
     SELECT 'user' || g, 'Name ' || (g * 7919 % 50000), 'user' || g || '@example.com', g % 10 <> 0,
            timestamptz '2025-01-01' + g * interval '1 second', timestamptz '2025-01-01' + g * interval '1 second'
       FROM generate_series(1, $1::int) g`,
    [ROWS],
  );
  await bench.db.exec('VACUUM ANALYZE users');
  const token = await adminToken(bench.db);

  const bare = await startServer('bare', 'bare', {});
  const product = await startServer('product', 'product', {});
  servers.push(bare, product);
  const before = beforeRoot ? await startServer('before', 'product', { APP_ROOT: beforeRoot }) : null;
  if (before) servers.push(before);
  const auth = { authorization: `Bearer ${token}` };
  const allCases = [
    {
      name: 'users list, first page',
      bare: { server: bare, path: '/bench/users', headers: {} },
      product: { path: `/api/${users.endpoint}?size=15`, headers: auth },
    },
    {
      name: '/api/health',
      bare: { server: bare, path: '/api/health', headers: {} },
      product: { path: '/api/health', headers: {} },
    },
  ];
  const only = process.env.THROUGHPUT_CASES;
  const cases = allCases.filter((c) => !only || c.name.includes(only === 'list' ? 'list' : only));
  const load = process.env.LOG_LEVEL ?? 'info';
  say(
    `${ROWS} users, ${CONNECTIONS} connections, ${PAIRS} interleaved pairs of ${SECONDS} s, product log level ${load}; ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${os.cpus().length} cores`,
  );
  const summary: string[] = [];
  for (const c of cases) {
    const targets = [
      { label: 'bare', server: c.bare.server, path: c.bare.path, headers: c.bare.headers },
      {
        label: 'product',
        server: product,
        path: c.product.path,
        headers: { ...c.product.headers, cookie: product.cookie },
      },
      ...(before
        ? [
            {
              label: 'before',
              server: before,
              path: c.product.path,
              headers: { ...c.product.headers, cookie: before.cookie },
            },
          ]
        : []),
    ];
    for (const t of targets) {
      const status = await probe(t.server.port, t.path, t.headers);
      if (status !== 200) throw new Error(`${t.label} ${t.path} answered ${status}`);
      await run(t.server, t.path, t.headers, WARM_UP_SECONDS);
    }
    const rounds: Record<string, Round[]> = Object.fromEntries(targets.map((t) => [t.label, []]));
    for (let pair = 0; pair < PAIRS; pair++) {
      for (const t of pair % 2 ? [...targets].reverse() : targets) {
        rounds[t.label]!.push(await run(t.server, t.path, t.headers, SECONDS));
      }
      say(
        `${c.name}, pair ${pair + 1}: ` +
          targets
            .map((t) => {
              const r = rounds[t.label]![pair]!;
              return `${t.label} ${r.rps.toFixed(0)} req/s (${r.cpuMs.toFixed(2)} ms CPU/req)`;
            })
            .join(', ') +
          `; load ${os.loadavg()[0]!.toFixed(1)}`,
      );
    }
    // Throughput ratio of each pair, and the CPU ratio: bare CPU per request / this one's, the share of the
    // bare route's throughput this server reaches when CPU is what limits both (steadier on a loaded machine).
    const ratio = (label: string) =>
      median(rounds[label]!.map((r, i) => r.rps / rounds.bare![i]!.rps)).toFixed(2);
    const cpuRatio = (label: string) =>
      median(rounds[label]!.map((r, i) => rounds.bare![i]!.cpuMs / r.cpuMs)).toFixed(2);
    const cpu = (label: string) => median(rounds[label]!.map((r) => r.cpuMs)).toFixed(2);
    summary.push(
      `  ${c.name.padEnd(24)} product / bare ${ratio('product')}x (CPU ${cpuRatio('product')}x, ${cpu('product')} ms/req)` +
        (before
          ? `   before / bare ${ratio('before')}x (CPU ${cpuRatio('before')}x, ${cpu('before')} ms/req)` +
            // The change itself, from the same rounds: product / before, requests/s and CPU per request.
            `   product / before ${median(rounds.product!.map((r, i) => r.rps / rounds.before![i]!.rps)).toFixed(2)}x` +
            ` (CPU ${median(rounds.product!.map((r, i) => rounds.before![i]!.cpuMs / r.cpuMs)).toFixed(2)}x)`
          : '') +
        `   bare ${median(rounds.bare!.map((r) => r.rps)).toFixed(0)} req/s, ${cpu('bare')} ms/req`,
    );
  }
  process.stdout.write(
    `\nThroughput against a bare Fastify + pg route (median of ${PAIRS} pair ratios; target >= 0.85x on the list; ` +
      `load average after ${os.loadavg()[0]!.toFixed(1)})\n${summary.join('\n')}\n`,
  );
} finally {
  for (const s of servers) await s.stop();
  await bench.close();
}

interface Server {
  port: number;
  pid: number;
  /** The cookies a browser holds after its first answer (the XSRF cookie), sent with every request. */
  cookie: string;
  stop(): Promise<void>;
}

/** Spawns bench/lib/throughputServer.ts in `mode` and waits until its `/api/health` answers. */
async function startServer(label: string, mode: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-throughput-${label}-`));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      // THROUGHPUT_CPU_PROF=<dir>: the servers write V8 CPU profiles there when they stop (where the time goes).
      ...(process.env.THROUGHPUT_CPU_PROF
        ? ['--cpu-prof', `--cpu-prof-dir=${process.env.THROUGHPUT_CPU_PROF}`]
        : []),
      '--import',
      'tsx',
      path.join(repoRoot, 'bench/lib/throughputServer.ts'),
      mode,
    ],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env, PORT: String(port), DATABASE_URL: bench.url!, DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', () => {}); // drained, as a supervisor reads it
  child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${label} server exited:\n${output}`);
    if ((await probe(port, '/api/health', {}).catch(() => 0)) === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const cookie = await new Promise<string>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/api/health' }, (res) => {
        res.resume();
        resolve((res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; '));
      })
      .on('error', reject);
  });
  return {
    port,
    pid: child.pid!,
    cookie,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function probe(port: number, urlPath: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: urlPath, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

/** A round: requests per second, and CPU milliseconds the server process spent per request. */
interface Round {
  rps: number;
  cpuMs: number;
}

/** CPU time (user + system, ms) a process has used so far, from /proc (clock ticks of 10 ms). */
function cpuOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Requests per second of CONNECTIONS keep-alive connections asking for `urlPath` back to back. */
async function run(
  server: Server,
  urlPath: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<Round> {
  const port = server.port;
  const cpuBefore = cpuOf(server.pid);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const all = { ...headers, 'accept-encoding': 'identity' };
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      await new Promise<void>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path: urlPath, headers: all, agent }, (res) => {
            res.resume();
            res.on('end', () =>
              res.statusCode === 200 ? resolve() : reject(new Error(`${res.statusCode}`)),
            );
          })
          .on('error', reject);
      });
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { rps: done / elapsed, cpuMs: (cpuOf(server.pid) - cpuBefore) / Math.max(1, done) };
}
