/**
 * `npm run lint:api`: builds the server in process (buildApp over an in-memory PGlite, never listening),
 * writes its OpenAPI document (what `GET /api/docs` answers) to a temp file (removed afterwards) or the path
 * given as the first argument (kept), and lints it with `redocly lint` (recommended rules, redocly.yaml).
 * Exits with redocly's exit code.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { openPglite } from '../server/db/pglite.ts';
import { migrate } from '../server/db/migrate.ts';
import { repoRoot } from './lib/frontend.ts';

const given = process.argv.slice(2).find((a) => !a.startsWith('--'));
const out = path.resolve(given ?? path.join(os.tmpdir(), `openapi-${process.pid}.json`));
const db = await openPglite(null);
await migrate(db);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
const config = { ...loadConfig({ DATA_DIR: dataDir }), logToFile: false, jobs: false, databaseUrl: null };
const app = await buildApp({ db, config, logger: pino({ level: 'silent' }) });
await app.ready();
const res = await app.inject({ url: '/api/docs' });
await app.close();
await db.close();
fs.rmSync(dataDir, { recursive: true, force: true });
if (res.statusCode !== 200) throw new Error(`GET /api/docs answered ${res.statusCode}`);
fs.writeFileSync(out, JSON.stringify(JSON.parse(res.body), null, 2));
process.stdout.write(`[lint:api] wrote ${out}\n`);
if (process.argv.includes('--no-lint')) process.exit(0);
const lint = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'redocly'), ['lint', out], {
  stdio: 'inherit',
  cwd: repoRoot,
});
if (!given) fs.rmSync(out, { force: true });
process.exit(lint.status ?? 1);
