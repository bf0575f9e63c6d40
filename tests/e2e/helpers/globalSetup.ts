import fs from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureFrontendBuilt, repoRoot } from '../../../scripts/lib/frontend.ts';
import { E2E_ADMIN, startServer } from './server.ts';
import type { E2eServer } from './server.ts';
import './context.ts';

export { E2E_ADMIN };

let server: E2eServer | null = null;

/**
 * Builds the app when stale, then starts the real server (`server/main.ts`, what `npm start` runs after its
 * own build check, skipped here so that a source saved meanwhile cannot start a second build) on a free port
 * with a temp DATA_DIR (PGlite) and a known admin password, and waits until it is ready. A test file that
 * needs other server settings starts its own with `startServer` (./server.ts).
 */
export async function setup(project: TestProject): Promise<void> {
  const say = (line: string) => process.stdout.write(`[e2e] ${line}\n`);
  await ensureFrontendBuilt({ root: repoRoot, distDir: path.join(repoRoot, 'dist'), log: say });
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
}
