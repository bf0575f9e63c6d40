/**
 * `npm start`: build the front end when it is stale, then start the server (API + built app) on PORT.
 * The server's `startup_ms` log field counts from the start of this process, minus the front-end build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureFrontendBuilt, repoRoot } from './lib/frontend.ts';

const say = (line: string): void => void process.stdout.write(`[start] ${line}\n`);

process.chdir(repoRoot);
// main() loads .env too; loading it here first lets DIST_DIR in .env steer the build check.
if (fs.existsSync('.env')) process.loadEnvFile('.env');

try {
  const buildMs = await ensureFrontendBuilt({ log: say });
  const dataNote = process.env.DATABASE_URL
    ? 'PostgreSQL from DATABASE_URL'
    : `embedded PGlite in ${path.resolve(process.env.DATA_DIR || './data', 'db')}`;
  say(`server: starting (${dataNote}) ...`);
  // Imported only now, so that a build does not run with the whole server already loaded.
  const { main } = await import('../server/main.ts');
  // main() logs startup_ms = performance.now() - startedAt; performance.now() counts from process start,
  // so passing the build time measures process start to listening, minus the build.
  await main(buildMs);
  const port = process.env.PORT || '3000';
  const host = process.env.HOST || '0.0.0.0';
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  say(`ready: http://${shown}:${port}/  (API under /api, docs at /api/docs; Ctrl-C stops)`);
} catch (err: unknown) {
  process.stderr.write(
    `[start] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
}
