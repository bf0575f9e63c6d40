/**
 * `npm run dev`: the API server (server/dev-server.ts: a change to a resource or a server file swaps in a
 * freshly imported app on the open database; a migration or a load error restarts the process) on API_PORT
 * (default 3001), and Vite's dev server with HMR on PORT (default 5173), which proxies /api to the API
 * (see vite.config.ts). DEV_RELOAD=0 runs the API under `tsx watch` instead (a full restart on every change).
 * Ctrl-C stops both; if either one stops, the other is stopped too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RESTART_EXIT_CODE } from '../server/dev-restart.ts';
import { repoRoot } from './lib/frontend.ts';

const say = (line: string): void => void process.stdout.write(`[dev] ${line}\n`);

process.chdir(repoRoot);
const apiPort = process.env.API_PORT || '3001';
const webPort = Number(process.env.PORT || 5173);
// vite.config.ts reads API_PORT for its /api proxy target.
process.env.API_PORT = apiPort;

// DEV_RELOAD=0: the API under `tsx watch` as before (a full restart on every change).
const inProcess = process.env.DEV_RELOAD !== '0';
const tsx = path.join(repoRoot, 'node_modules', '.bin', 'tsx');
const spawnApi = (): ChildProcess =>
  spawn(
    tsx,
    inProcess
      ? // server/dev-server.ts keeps the database open and swaps in a freshly imported app when a resource
        // or server file changes; what it cannot take (a migration, an error while loading) ends it with
        // RESTART_EXIT_CODE and it is started again here (the full restart, which migrates).
        ['server/dev-server.ts']
      : // tsx watch restarts on every file the server imports (server/, resources/, schemas/, locales/); the
        // migrations and snapshots are read from disk, so they are included: after `npm run make:migration`
        // (or a make:resource) the server restarts and applies the new migration, with no restart by hand.
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
say(
  inProcess
    ? `API: server/dev-server.ts (in-process reload) on http://127.0.0.1:${apiPort}`
    : `API: tsx watch server/main.ts on http://127.0.0.1:${apiPort}`,
);
let api = spawnApi();

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
/** A failed start waits for the next change of a file it could be about, then starts again (as tsx watch). */
const retryOnChange = (): void => {
  say('API failed to start: waiting for a change under server/, resources/, schemas/ or locales/');
  let started = false;
  const watchers = ['server', 'resources', 'schemas', 'locales'].map((dir) =>
    fs.watch(path.join(repoRoot, dir), { recursive: true }, (_event, name) => {
      if (!name || isStopping || started) return;
      started = true;
      for (const watcher of watchers) watcher.close();
      say(`${dir}/${name} changed: starting the API again`);
      api = spawnApi();
      watchApi();
    }),
  );
};
const watchApi = (): void => {
  api.on('exit', (status, signal) => {
    if (isStopping) return;
    if (inProcess && status === RESTART_EXIT_CODE) {
      say('full restart of the API');
      api = spawnApi();
      watchApi();
    } else if (inProcess && status !== 0 && signal === null) retryOnChange();
    else void stop(`API process exited (${signal ?? status})`, status ?? 1);
  });
  api.on('error', (err) => void stop(`API process failed to start: ${err.message}`, 1));
};
watchApi();

try {
  await vite.listen();
} catch (err) {
  await stop(`Vite failed: ${err instanceof Error ? err.message : String(err)}`, 1);
}
say('Vite dev server (HMR), /api proxied to the API:');
vite.printUrls();
