/**
 * `npm run bench:dev-loop [-- --rounds 3]`: the edit-to-screen time of `npm run dev` (issue 15 item 6), in a
 * temporary copy of the project (node_modules linked, PGlite in a temp DATA_DIR, free ports).
 *
 * 1. Cold start: spawning `npm run dev` until the API answers through Vite's proxy and Vite serves the page.
 * 2. A new resource: `npm run make:resource widgets` (the command's own time), then until the running API's
 *    menu (`GET v1/system/menus`) lists `/settings/widgets` and Vite serves resources/index.ts with it.
 * 3. An edit of a resource file (its menu icon, `rounds` times): from saving the file until the API's menu
 *    shows the new icon (restarted, or its app swapped in process), and until Vite serves the changed module (what the browser's hot update
 *    fetches). The median and the worst round are printed.
 * All three run twice in the same run: first with DEV_RELOAD=0 (the API under `tsx watch`, the full restart:
 * the baseline), then with the in-process reload (server/dev-server.ts); the last line compares the edits.
 * Prints figures only, never asserts (docs/adding-a-resource.md quotes them).
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { repoRoot } from '../scripts/lib/frontend.ts';
import { freePort } from '../scripts/lib/pg-cluster.ts';

const say = (line: string): void => void process.stdout.write(`[bench:dev-loop] ${line}\n`);
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Math.max(1, Number(process.argv[roundsArg + 1]) || 3) : 3;
const SKIP = new Set(['node_modules', '.git', 'dist', 'dist-e2e', 'dist-server', 'data', 'test-results']);
const PASSWORD = 'bench dev loop password';
const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The baseline (the full restart of tsx watch) and the in-process reload, measured in the same run.
const fullMs = await run(false);
const reloadMs = await run(true);
say(
  `edit until the API shows it, median: in-process reload ${fmt(reloadMs)} against the full restart ` +
    `${fmt(fullMs)} (${(fullMs / reloadMs).toFixed(1)}x); ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
);

/** One whole run of `npm run dev` in a fresh copy: the full restart (DEV_RELOAD=0) or the in-process reload. */
async function run(reload: boolean): Promise<number> {
  const mode = reload ? 'in-process reload' : 'full restart (DEV_RELOAD=0)';
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dev-loop-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dev-loop-data-'));
  for (const entry of fs.readdirSync(repoRoot))
    if (!SKIP.has(entry)) fs.cpSync(path.join(repoRoot, entry), path.join(copy, entry), { recursive: true });
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(copy, 'node_modules'));
  fs.rmSync(path.join(copy, 'server/migrations/snapshots/.pending.json'), { force: true });

  const [apiPort, webPort] = [await freePort(), await freePort()];
  const web = `http://127.0.0.1:${webPort}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEV_RELOAD: reload ? '1' : '0',
    API_PORT: String(apiPort),
    PORT: String(webPort),
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'warn',
    LOG_TO_FILE: '0',
  };
  delete env.DATABASE_URL;
  let output = '';
  const started = performance.now();
  const dev = spawn(path.join(repoRoot, 'node_modules/.bin/tsx'), ['scripts/dev.ts'], {
    cwd: copy,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The API's own console lines (server/dev-server.ts: each reload or full restart), kept apart.
  const apiLines: string[] = [];
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-6000);
    for (const line of chunk.toString().split('\n'))
      if (line.startsWith('[dev:api] ') && !line.includes('migrations applied')) apiLines.push(line);
  };
  dev.stdout.on('data', keep);
  dev.stderr.on('data', keep);

  const stop = async () => {
    if (dev.exitCode === null && dev.signalCode === null) {
      const exited = new Promise((resolve) => dev.once('exit', resolve));
      dev.kill('SIGTERM');
      const force = setTimeout(() => dev.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(force);
    }
    fs.rmSync(copy, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  /** Polls `probe` every 50 ms until it is true; returns the ms since `from`. */
  async function until(probe: () => Promise<boolean>, from: number, what: string): Promise<number> {
    const deadline = performance.now() + 180_000;
    for (;;) {
      if (await probe().catch(() => false)) return performance.now() - from;
      if (dev.exitCode !== null) throw new Error(`npm run dev exited while waiting for ${what}:\n${output}`);
      if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const text = async (url: string, init?: RequestInit) => {
    const res = await fetch(url, init);
    return res.ok ? res.text() : '';
  };
  let token = '';
  const menus = () => text(`${web}/api/v1/system/menus`, { headers: { authorization: `Bearer ${token}` } });

  try {
    const apiMs = await until(async () => (await fetch(`${web}/api/health/ready`)).ok, started, 'the API');
    const pageMs = await until(
      async () => (await text(`${web}/`)).includes('<div id="root"'),
      started,
      'the page',
    );
    say(`${mode}: cold start: API ready through Vite after ${fmt(apiMs)}, page served after ${fmt(pageMs)}`);
    const login = await fetch(`${web}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD, remember: false }),
    });
    token = ((await login.json()) as { data: { access_token: string } }).data.access_token;

    const scaffoldAt = performance.now();
    await promisify(execFile)(
      path.join(repoRoot, 'node_modules/.bin/tsx'),
      ['server/cli/make-resource.ts', 'widgets'],
      {
        cwd: copy,
        env,
      },
    );
    const commandMs = performance.now() - scaffoldAt;
    const [newApiMs, newClientMs] = await Promise.all([
      until(async () => (await menus()).includes('/settings/widgets'), scaffoldAt, 'the new page'),
      until(
        async () => (await text(`${web}/resources/index.ts`)).includes('widgets'),
        scaffoldAt,
        'the new module',
      ),
    ]);
    say(
      `${mode}: new resource: make:resource took ${fmt(commandMs)}; in the API's menu ${fmt(newApiMs)} and in Vite's ` +
        `modules ${fmt(newClientMs)} after the command started (no restart by hand)`,
    );

    const file = path.join(copy, 'resources/widgets.ts');
    const apiTimes: number[] = [];
    const clientTimes: number[] = [];
    let icon = 'Folder';
    for (let round = 0; round < rounds; round += 1) {
      const next = icon === 'Folder' ? 'Inventory2' : 'Folder';
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(`icon: '${icon}'`, `icon: '${next}'`));
      const savedAt = performance.now();
      icon = next;
      // Both probes run at once: the client's module does not wait for the API.
      const [apiMs2, clientMs] = await Promise.all([
        until(async () => hasIcon(await menus(), next), savedAt, 'the edited menu'),
        until(
          async () =>
            /icon: ["']/.test(await text(`${web}/resources/widgets.ts`)) &&
            (await text(`${web}/resources/widgets.ts`)).includes(next),
          savedAt,
          'the edited module',
        ),
      ]);
      apiTimes.push(apiMs2);
      clientTimes.push(clientMs);
      say(`${mode}: edit ${round + 1}: API ${fmt(apiMs2)}, client module ${fmt(clientMs)}`);
    }
    say(
      `${mode}: edit to screen over ${rounds} rounds: API median ${fmt(median(apiTimes))} (worst ${fmt(Math.max(...apiTimes))}), ` +
        `client median ${fmt(median(clientTimes))} (worst ${fmt(Math.max(...clientTimes))}); ${os.cpus().length} cores, ` +
        `load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    for (const line of apiLines) say(`${mode}: ${line}`);
    return median(apiTimes);
  } finally {
    await stop();
  }
}

/** True when the menu item of /settings/widgets has this icon. */
function hasIcon(json: string, icon: string): boolean {
  const find = (items: unknown): boolean =>
    Array.isArray(items) &&
    items.some((item: { path?: string; icon?: string; children?: unknown }) =>
      item.path === '/settings/widgets' ? item.icon === icon : find(item.children),
    );
  try {
    return find((JSON.parse(json) as { data: unknown }).data);
  } catch {
    return false;
  }
}
