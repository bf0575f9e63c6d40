/**
 * `npx tsx bench/login.ts [count] [concurrency]`: sign-ins per second and latency of `POST /api/v1/user/login`
 * over real HTTP on loopback, at the shipped argon2id parameters, plus the event-loop delay meanwhile (argon2
 * runs on libuv's thread pool, so the loop should stay free). Prints figures only; never fails on time.
 * Runs on in-memory PGlite, or on PostgreSQL when DATABASE_URL is set. Each request claims its own client
 * address through X-Forwarded-For (TRUST_PROXY on) so the per-address ceiling does not throttle the bench.
 */
import os from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pino from 'pino';
import { verify } from '@node-rs/argon2';
import { ARGON2_OPTIONS, hashPassword } from '../server/credentials/password.ts';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { migrate } from '../server/db/migrate.ts';
import { openDatabase } from '../server/db/index.ts';
import { openPglite } from '../server/db/pglite.ts';

const count = Number(process.argv[2] ?? 400);
const concurrency = Number(process.argv[3] ?? 8);
const password = 'bench-horse-battery-staple';

const db = process.env.DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '/tmp' })
  : await openPglite(null);
await migrate(db);
const username = `bench_${Date.now()}`;
await db.query('INSERT INTO users (username, name, password_hash) VALUES ($1, $1, $2)', [
  username,
  await hashPassword(password),
]);
const config = { ...loadConfig({ DATA_DIR: '/tmp/admin-bench' }), logToFile: false, trustProxy: true };
const app = await buildApp({ db, config, logger: pino({ level: 'silent' }) });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

let seq = 0;
async function signIn(): Promise<number> {
  const n = ++seq;
  const started = performance.now();
  const res = await fetch(`${address}/api/v1/user/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
    },
    body: JSON.stringify({ username, password, remember: false }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`sign-in answered ${res.status}`);
  return performance.now() - started;
}

// The ceiling: argon2 verifications alone, at the same concurrency, in this process.
const stored = await hashPassword(password);
const hashStarted = performance.now();
let hashed = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (hashed++ < 100) await verify(stored, password);
  }),
);
const hashRate = 100 / ((performance.now() - hashStarted) / 1000);

// Warm-up: JIT, connection, first argon2 allocation.
for (let i = 0; i < 5; i++) await signIn();

const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const latencies: number[] = [];
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next++ < count) latencies.push(await signIn());
  }),
);
const elapsed = (performance.now() - started) / 1000;
loop.disable();

const sorted = [...latencies].sort((a, b) => a - b);
const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (ns: number) => (ns / 1e6).toFixed(1);
const line = (label: string, value: string) => process.stdout.write(`${label.padEnd(28)} ${value}\n`);
line(
  'cpus / UV_THREADPOOL_SIZE',
  `${os.availableParallelism()} / ${process.env.UV_THREADPOOL_SIZE ?? 4 + ' (default)'}`,
);
line(
  'argon2id',
  `m=${ARGON2_OPTIONS.memoryCost} KiB t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}`,
);
line('database', process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)');
line('sign-ins', `${sorted.length} at concurrency ${concurrency}`);
line('argon2 verifies per second', hashRate.toFixed(1));
line('load average (1 min)', os.loadavg()[0]!.toFixed(2));
line('sign-ins per second', (sorted.length / elapsed).toFixed(1));
line(
  'latency p50 / p95 / max',
  `${pct(50).toFixed(1)} / ${pct(95).toFixed(1)} / ${sorted.at(-1)!.toFixed(1)} ms`,
);
line(
  'event-loop delay p50 / p99',
  `${ms(loop.percentile(50))} / ${ms(loop.percentile(99))} ms (max ${ms(loop.max)})`,
);

await app.close();
await db.close();
