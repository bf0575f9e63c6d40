/**
 * `npm run dev`: the API server under `tsx watch` (restarts when a server file, a resource or a migration
 * changes) on API_PORT
 * (default 3001), and Vite's dev server with HMR on PORT (default 5173), which proxies /api to the API
 * (see vite.config.ts). Ctrl-C stops both; if either one stops, the other is stopped too.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './lib/frontend.ts';

const say = (line: string): void => void process.stdout.write(`[dev] ${line}\n`);

process.chdir(repoRoot);
const apiPort = process.env.API_PORT || '3001';
const webPort = Number(process.env.PORT || 5173);
// vite.config.ts reads API_PORT for its /api proxy target.
process.env.API_PORT = apiPort;

say(`API: tsx watch server/main.ts on http://127.0.0.1:${apiPort}`);
const api = spawn(
  path.join(repoRoot, 'node_modules', '.bin', 'tsx'),
  // tsx watch restarts on every file the server imports (server/, resources/, schemas/, locales/); the
  // migrations and snapshots are read from disk, so they are included: after `npm run make:migration` (or a
  // make:resource) the server restarts and applies the new migration, with no restart by hand.
  ['watch', '--clear-screen=false', '--include', 'server/migrations/**', 'server/main.ts'],
  {
    stdio: 'inherit',
    // Its own process group: a Ctrl-C reaches only this script, which then sends the API exactly one
    // SIGTERM (a second signal makes tsx watch kill the server before it has drained and closed the db).
    detached: true,
    // PORT is the web port here; the API gets its own. HOST defaults to loopback: only Vite faces the network.
    env: { ...process.env, PORT: apiPort, HOST: process.env.API_HOST || '127.0.0.1' },
  },
);

let isStopping = false;
const { createServer } = await import('vite');
const vite = await createServer({ root: repoRoot, server: { port: webPort } });

const stop = async (reason: string, code: number): Promise<void> => {
  if (isStopping) return;
  isStopping = true;
  say(`${reason}: stopping the API and the Vite dev server`);
  if (api.exitCode === null && api.signalCode === null) api.kill('SIGTERM');
  await vite.close();
  if (api.exitCode === null && api.signalCode === null) {
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        api.kill('SIGKILL');
        resolve();
      }, 5_000);
      api.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
    });
  }
  process.exit(code);
};

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => void stop(signal, 0));
}
api.on('exit', (status, signal) => void stop(`API process exited (${signal ?? status})`, status ?? 1));
api.on('error', (err) => void stop(`API process failed to start: ${err.message}`, 1));

try {
  await vite.listen();
} catch (err) {
  await stop(`Vite failed: ${err instanceof Error ? err.message : String(err)}`, 1);
}
say('Vite dev server (HMR), /api proxied to the API:');
vite.printUrls();
