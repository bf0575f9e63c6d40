/**
 * `npm run test:pg [-- vitest args]`: the server test project (unit + HTTP integration) against a real
 * PostgreSQL 15 cluster, created with initdb in a temp directory on a free port and removed afterwards,
 * also when the tests fail or the run is interrupted. Exits with vitest's exit code.
 * The files of `WITHOUT_DATABASE` are left out: `npm test` runs them, and they do the same either way.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/frontend.ts';
import { startPgCluster } from './lib/pg-cluster.ts';

const say = (line: string): void => void process.stdout.write(`[test:pg] ${line}\n`);

/**
 * Server-project files that open no database (Vite builds, the layer lint, the resource generator): with
 * DATABASE_URL they would run exactly as in `npm test`, for about a minute of a CI run. Each is read first:
 * one that names a database helper fails this run, so a file that starts using a database comes back here.
 */
const WITHOUT_DATABASE = [
  'tests/integration/engine-seam.test.ts',
  'tests/integration/lint-layers.test.ts',
  'tests/integration/make-resource.test.ts',
  'tests/integration/menu-icons.test.ts',
  'tests/integration/vite-lean-deps.test.ts',
];
const DATABASE_USE =
  /createTestDb|createTestApp|createGadgetApp|DATABASE_URL|openDatabase|startServer|tests\/helpers\/|pglite/i;

process.chdir(repoRoot);
for (const file of WITHOUT_DATABASE) {
  if (DATABASE_USE.test(fs.readFileSync(path.join(repoRoot, file), 'utf8'))) {
    process.stderr.write(
      `[test:pg] ${file} uses a database: take it off WITHOUT_DATABASE in scripts/test-pg.ts\n`,
    );
    process.exit(1);
  }
}
let cluster: Awaited<ReturnType<typeof startPgCluster>>;
try {
  cluster = await startPgCluster({ log: say });
} catch (err) {
  process.stderr.write(`[test:pg] ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

const args = [
  'run',
  '--project',
  'server',
  ...WITHOUT_DATABASE.flatMap((file) => ['--exclude', file]),
  ...process.argv.slice(2),
];
say(`DATABASE_URL=${cluster.url} vitest ${args.join(' ')}`);
const vitest = spawn(path.join(repoRoot, 'node_modules', '.bin', 'vitest'), args, {
  stdio: 'inherit',
  env: { ...process.env, DATABASE_URL: cluster.url },
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
