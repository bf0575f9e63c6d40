/**
 * `npm run test:pg [-- vitest args]`: the server tests that can behave differently on PostgreSQL 15
 * (`onBothDatabases()`, below), run against a real cluster created with initdb in a temp directory on a
 * free port and removed afterwards, also when the tests fail or the run is interrupted. Exits with
 * vitest's exit code. Name files (`npm run test:pg -- tests/integration/auth.test.ts`) to run those
 * instead; `--all` runs the whole server project. docs/testing.md says what runs where and why.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/frontend.ts';
import { startPgCluster } from './lib/pg-cluster.ts';

const say = (line: string): void => void process.stdout.write(`[test:pg] ${line}\n`);

/**
 * `npm test` runs every server test on PGlite, PostgreSQL compiled to WebAssembly in the test process. On a
 * PostgreSQL 15 server the same SQL meets another server version and planner, the node-postgres driver (a
 * pool, several connections, locks between them), LISTEN/NOTIFY across processes, COPY, and several servers
 * on one database. So these areas run on both, each for its reason; what else a module does over HTTP
 * (accounts, settings, security headers, WeChat...) goes through the same layers and runs once, on PGlite.
 * A listed area's file that opens no database (a pure unit test) is left out: it would run the same.
 */
const AREAS: { files: RegExp; why: string }[] = [
  { files: /^server\/engine\/.*\.test\.ts$/, why: 'the engine writes the SQL: lists, writes, schema' },
  { files: /^tests\/integration\/engine[\w-]*\.test\.ts$/, why: 'the engine over HTTP, its CSV and keyset' },
  { files: /^tests\/integration\/field-kinds\.test\.ts$/, why: 'every field kind as a column type' },
  { files: /^tests\/integration\/db-[\w-]+\.test\.ts$/, why: 'the database layer: COPY, restarts, down' },
  { files: /^tests\/integration\/schema-drift\.test\.ts$/, why: 'migrations against each catalogue' },
  { files: /^tests\/integration\/(auth-cache|events)\.test\.ts$/, why: 'caches kept by notifications' },
  { files: /^tests\/integration\/idempotency\.test\.ts$/, why: 'concurrent retries wait on one row lock' },
  {
    files: /^tests\/integration\/(scope-[\w-]+|access-explain)\.test\.ts$/,
    why: 'data scopes: predicates, plans and indexes of each database',
  },
  { files: /^tests\/integration\/[\w-]+-cluster\.test\.ts$/, why: 'several servers on one database' },
  // The generated suites run in full on PGlite and as a seeded sample here (GENERATED_CASES=sample): every
  // operation and every resource still meets PostgreSQL, with fewer cases each.
  {
    files: /^tests\/integration\/(contract|resource-properties|access-generated)\.test\.ts$/,
    why: 'a sample of each',
  },
];
/** A file that opens the database the run points at (a test database, a scratch one, the app on one). */
const OPENS_DATABASE =
  /\b(createTestDb|createTestApp|createGadgetApp|createScratchDatabase|openDatabase|serverOnStoppableDatabase)\b/;
/** A file that branches on the database (PostgreSQL-only tests, or other expectations): it runs on both. */
const READS_DATABASE_URL = /process\.env\.DATABASE_URL/;

/** The server project's test files that run here, relative to the repository root, sorted. */
function onBothDatabases(root = repoRoot): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.test.ts')) files.push(rel);
    }
  };
  walk('server');
  walk('tests/integration');
  return files
    .filter((file) => {
      const source = fs.readFileSync(path.join(root, file), 'utf8');
      if (READS_DATABASE_URL.test(source)) return true;
      return AREAS.some((area) => area.files.test(file)) && OPENS_DATABASE.test(source);
    })
    .sort();
}

const userArgs = process.argv.slice(2);
const all = userArgs.includes('--all');
const passed = userArgs.filter((arg) => arg !== '--all');
// A positional argument (not an option, nor an option's value) names files: run those instead.
const namesFiles = passed.some((arg, i) => !arg.startsWith('-') && !passed[i - 1]?.match(/^-[\w-]+$/));
process.chdir(repoRoot);
let cluster: Awaited<ReturnType<typeof startPgCluster>>;
try {
  cluster = await startPgCluster({ log: say });
} catch (err) {
  process.stderr.write(`[test:pg] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

const generated = process.env.GENERATED_CASES ?? 'sample';
const selected = all || namesFiles ? [] : onBothDatabases();
if (selected.length) say(`${selected.length} files (the areas of scripts/test-pg.ts; --all for every file)`);
const args = ['run', '--project', 'server', ...passed, ...selected];
say(
  `DATABASE_URL=${cluster.url} GENERATED_CASES=${generated} vitest run --project server ${passed.join(' ')}`,
);
const vitest = spawn(path.join(repoRoot, 'node_modules', '.bin', 'vitest'), args, {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: cluster.url, GENERATED_CASES: generated },
});

// On Ctrl-C the terminal signals vitest too; on a plain kill pass the signal on. Either way, wait for
// vitest to exit and clean up then, so no test is left talking to a vanished server.
let interrupted: NodeJS.Signals | null = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = signal;
    say(`${signal}: stopping the tests, then the cluster`);
    vitest.kill(signal);
  });
}

const code = await new Promise<number>((resolve) => {
  vitest.on('error', (err) => {
    process.stderr.write(`[test:pg] could not run vitest: ${err.message}\n`);
    resolve(1);
  });
  vitest.on('exit', (status, signal) => resolve(status ?? (signal ? 128 + signalNumber(signal) : 1)));
});
say('stopping the cluster and removing its directory');
cluster.destroy();
process.exit(interrupted && code === 0 ? 130 : code);

function signalNumber(signal: NodeJS.Signals): number {
  return { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[signal as string] ?? 1;
}
