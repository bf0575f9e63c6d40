import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STAMP_FILE, fingerprintInputs, repoRoot } from '../../scripts/lib/frontend.ts';
import { freePort } from '../../scripts/lib/pg-cluster.ts';
import { startServerProcess } from '../../bench/lib/serverProcess.ts';
import { eventually } from '../helpers/eventually.ts';
import { createScratchDatabase } from '../helpers/pgDatabase.ts';

/**
 * `npm start` (scripts/start.mjs) runs the server compiled by esbuild, with plain node: it compiles into
 * SERVER_DIST_DIR when there is no build or a source file changed, and reuses the build otherwise. Three
 * real starts on one database (PGlite in a temp DATA_DIR, or a scratch PostgreSQL database under
 * `npm run test:pg`), each answering /api/health and logging startup_ms. The front end is not built here:
 * DIST_DIR is a temp directory stamped as a build of the current sources, which the start accepts as fresh.
 * The first start of a build writes the V8 code cache (start.cjs.v8-cache) after its first answer and the
 * next ones run from it. The probes of the packages loaded on first use (their `import()` goes through the
 * launcher) run on a start from the cache, and a cache V8 refuses is written again.
 */
describe('npm start runs the compiled server', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-start-compiled-'));
  // Inside the repository, as the start requires (the build's package imports resolve from node_modules).
  const serverDist = path.join(repoRoot, `dist-server-test-${process.pid}`);
  const frontDist = path.join(tmp, 'dist');
  const dataDir = path.join(tmp, 'data');
  let dropDatabase: (() => Promise<void>) | null = null;
  afterAll(async () => {
    await dropDatabase?.();
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(serverDist, { recursive: true, force: true });
  });

  /**
   * What the compiled server loads on first use rather than at start (exceljs, otplib and qrcode, the
   * passkey library, cron-parser): a bundling mistake there shows only when a user reaches it (a bundled exceljs once
   * failed every XLSX export), so one request of each runs against the compiled build.
   */
  async function probeLazyPackages(base: string): Promise<void> {
    const call = (method: string, url: string, token?: string, body?: unknown) =>
      fetch(`${base}/api/${url}`, {
        method,
        headers: {
          'accept-language': 'en',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const login = await call('POST', 'v1/user/login', undefined, {
      username: 'admin',
      password: 'compiled-start-password-1',
      remember: false,
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    const xlsx = await call('GET', 'v1/user/departments/export?format=xlsx', token);
    expect(xlsx.status).toBe(200);
    // An XLSX file is a zip: "PK" first.
    expect(
      Buffer.from(await xlsx.arrayBuffer())
        .subarray(0, 2)
        .toString(),
    ).toBe('PK');
    const totp = await call('POST', 'v1/user/2fa/totp', token);
    expect(totp.status).toBe(200);
    expect(((await totp.json()) as { data: { otpauth_url: string } }).data.otpauth_url).toMatch(/^otpauth:/);
    expect((await call('POST', 'v1/user/passkeys/options', token, {})).status).toBe(200);
    // cron-parser loads from node_modules on first use (modules/tasks/cron.ts), not from the bundle.
    const preview = await call('POST', 'v1/system/tasks/preview', token, {
      cron: '0 3 * * *',
      timezone: 'Asia/Shanghai',
    });
    expect(preview.status).toBe(200);
    expect(((await preview.json()) as { data: { next_runs: string[] } }).data.next_runs[0]).toMatch(
      /^\d{4}-\d\d-\d\dT19:00:00(\.000)?Z$/,
    );
    const bad = await call('POST', 'v1/system/tasks/preview', token, { cron: '0 3 * *', timezone: 'UTC' });
    expect(bad.status).toBe(422);
    // The Chinese messages survive the build (esbuild writes them as escapes; the bundle is read as ASCII).
    const zh = await fetch(`${base}/api/v1/system/tasks/preview`, {
      method: 'POST',
      headers: {
        'accept-language': 'zh-CN',
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ cron: '0 3 * *', timezone: 'UTC' }),
    });
    expect(zh.status).toBe(422);
    const { message } = (await zh.json()) as { message: string };
    expect(message).toMatch(/[\u4e00-\u9fff]/);
    expect(message).not.toMatch(/[\u0080-\u00ff\ufffd]/); // what UTF-8 read as Latin-1 would give
  }

  async function startOnce(databaseUrl: string, probe = false): Promise<string> {
    const port = await freePort();
    const server = await startServerProcess({
      command: process.execPath,
      args: ['scripts/start.mjs'],
      cwd: repoRoot,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        SERVER_DIST_DIR: serverDist,
        DIST_DIR: frontDist,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_TO_FILE: '0',
        JOBS: '0',
        ADMIN_PASSWORD: 'compiled-start-password-1',
      },
      port,
      every: 100,
    });
    try {
      if (probe) await probeLazyPackages(`http://127.0.0.1:${port}`);
      // The log goes out through an asynchronous destination: the startup line may follow "ready" by a moment.
      return await eventually(
        () => {
          expect(server.output()).toMatch(/"startup_ms":\d+/);
          return server.output();
        },
        { timeoutMs: 15_000, what: 'the startup log line' },
      );
    } finally {
      await server.stop();
    }
  }

  it('compiles when there is no build, reuses a fresh one, recompiles after a source change', async () => {
    let databaseUrl = '';
    if (process.env.DATABASE_URL) {
      const scratch = await createScratchDatabase();
      dropDatabase = scratch.drop;
      databaseUrl = scratch.url;
    }
    fs.mkdirSync(frontDist, { recursive: true });
    fs.writeFileSync(path.join(frontDist, 'index.html'), '<!doctype html><title>stub</title>');
    fs.writeFileSync(path.join(frontDist, STAMP_FILE), JSON.stringify(fingerprintInputs(repoRoot)));

    const first = await startOnce(databaseUrl);
    expect(first).toContain('server: compiling with esbuild (no build yet)');
    expect(first).toContain('front end: up to date');
    expect(isAscii(fs.readFileSync(path.join(serverDist, 'start.cjs')))).toBe(true);
    expect(first).toContain('server: no V8 code cache yet; one is written after the first answer');
    const cacheFile = path.join(serverDist, 'start.cjs.v8-cache');
    const firstCacheBytes = fs.statSync(cacheFile).size;
    expect(firstCacheBytes).toBeGreaterThan(100_000);

    const second = await startOnce(databaseUrl, true);
    expect(second).toContain('server: compiled build in');
    expect(second).not.toContain('compiling with esbuild');
    expect(second).toContain('server: started from the V8 code cache');
    expect(second).not.toContain('no V8 code cache');

    // A cache V8 cannot use (another node, other flags, a damaged file) is refused, and written again.
    fs.writeFileSync(cacheFile, Buffer.alloc(4096, 7));
    const refused = await startOnce(databaseUrl);
    expect(refused).toContain('server: V8 refused the code cache');
    // Written again, by a start on an existing database: the first start's, which created the database and
    // collected garbage often, held as much (V8's bytecode flushing is off; with it, about half).
    expect(firstCacheBytes).toBeGreaterThan(0.85 * fs.statSync(cacheFile).size);

    // What saving a file does to it: a new modification time.
    const source = path.join(repoRoot, 'server', 'config.ts');
    const later = new Date(fs.statSync(source).mtimeMs + 1000);
    fs.utimesSync(source, later, later);
    const third = await startOnce(databaseUrl);
    expect(third).toContain('server: compiling with esbuild (server/config.ts changed)');
  }, 600_000);
});
