/**
 * `npm run test:e2e [-- vitest args]`: the browser tests (vitest.e2e.config.ts). Their global setup builds
 * the app when stale and starts the real server; this script only runs vitest and passes its exit code on.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './lib/frontend.ts';

process.chdir(repoRoot);
const args = ['run', '-c', 'vitest.e2e.config.ts', ...process.argv.slice(2)];
process.stdout.write(`[test:e2e] vitest ${args.join(' ')}\n`);
const vitest = spawn(path.join(repoRoot, 'node_modules', '.bin', 'vitest'), args, { stdio: 'inherit' });
// A Ctrl-C reaches vitest from the terminal by itself (a second SIGINT would make it skip the global
// teardown), so this script only waits; a kill of this script alone is passed on.
process.on('SIGINT', () => undefined);
for (const signal of ['SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => vitest.kill(signal));
}
vitest.on('error', (err) => {
  process.stderr.write(`[test:e2e] could not run vitest: ${err.message}\n`);
  process.exit(1);
});
vitest.on('exit', (status, signal) => process.exit(status ?? (signal ? 130 : 1)));
