import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureFrontendBuilt, repoRoot } from '../../../scripts/lib/frontend.ts';
import { migrate } from '../../../server/db/migrate.ts';
import { openPglite } from '../../../server/db/pglite.ts';
import { E2E_ADMIN, PGLITE_TEMPLATE_ENV, startServer } from './server.ts';
import type { E2eServer } from './server.ts';
import './context.ts';

export { E2E_ADMIN };

let server: E2eServer | null = null;
let templateRoot: string | null = null;

/**
 * Builds the app when stale, then starts the real server (`server/main.ts`, what `npm start` runs after its
 * own build check, skipped here so that a source saved meanwhile cannot start a second build) on a free port
 * with a temp DATA_DIR (PGlite) and a known admin password, and waits until it is ready. A test file that
 * needs other server settings starts its own with `startServer` (./server.ts).
 *
 * Meanwhile, in a second process, the engine fixture's build (dist-e2e/, ./fixture-server.ts) when stale, and
 * here a migrated PGlite database that every server of this run starts from (./server.ts).
 */
export async function setup(project: TestProject): Promise<void> {
  const say = (line: string) => process.stdout.write(`[e2e] ${line}\n`);
  const fixtureBuild = buildFixtureInChild();
  // Whatever fails first is reported once the fixture build has ended too (no process is left behind).
  const [product, fixture, template] = await Promise.allSettled([
    ensureFrontendBuilt({ root: repoRoot, distDir: path.join(repoRoot, 'dist'), log: say }),
    fixtureBuild,
    migratedPgliteTemplate(),
  ]);
  for (const result of [product, fixture, template]) if (result.status === 'rejected') throw result.reason;
  if (!fs.existsSync(path.join(repoRoot, 'dist', 'index.html'))) {
    throw new Error('No built app in dist/: the browser tests need index.html and src/ to build.');
  }
  // A busy machine (parallel builds, other suites) can take minutes to start and migrate.
  server = await startServer({ log: say, readyTimeoutMs: 240_000 });
  project.provide('baseURL', server.baseURL);
  project.provide('adminUsername', E2E_ADMIN.username);
  project.provide('adminPassword', E2E_ADMIN.password);
}

/** Stops the server (SIGTERM: it drains and closes the database) and removes its data directory. */
export async function teardown(): Promise<void> {
  const running = server;
  server = null;
  await running?.stop();
  if (templateRoot) fs.rmSync(templateRoot, { recursive: true, force: true });
  templateRoot = null;
  delete process.env[PGLITE_TEMPLATE_ENV];
}

/** `tsx tests/e2e/helpers/fixture-server.ts --build`, its output passed on; rejects unless it exits with 0. */
function buildFixtureInChild(): Promise<void> {
  const child = spawn(
    path.join(repoRoot, 'node_modules', '.bin', 'tsx'),
    [path.join('tests', 'e2e', 'helpers', 'fixture-server.ts'), '--build'],
    { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`fixture build failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/** A migrated PGlite data directory in a temp directory, named to the servers by PGLITE_TEMPLATE_ENV. */
async function migratedPgliteTemplate(): Promise<void> {
  templateRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-e2e-template-'));
  const dir = path.join(templateRoot, 'db');
  const db = await openPglite(dir);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  process.env[PGLITE_TEMPLATE_ENV] = dir;
}
