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

  async function startOnce(databaseUrl: string): Promise<string> {
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
    expect(fs.existsSync(path.join(serverDist, 'start.js'))).toBe(true);

    const second = await startOnce(databaseUrl);
    expect(second).toContain('server: compiled build in');
    expect(second).not.toContain('compiling with esbuild');

    // What saving a file does to it: a new modification time.
    const source = path.join(repoRoot, 'server', 'config.ts');
    const later = new Date(fs.statSync(source).mtimeMs + 1000);
    fs.utimesSync(source, later, later);
    const third = await startOnce(databaseUrl);
    expect(third).toContain('server: compiling with esbuild (server/config.ts changed)');
  }, 600_000);
});
