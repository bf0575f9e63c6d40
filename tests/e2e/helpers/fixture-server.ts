import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { fingerprintInputs, repoRoot, viteProductionBuild } from '../../../scripts/lib/frontend.ts';
import type { InputsFingerprint } from '../../../scripts/lib/frontend.ts';
import { startServer } from './server.ts';
import type { E2eServer } from './server.ts';

/**
 * The engine fixture in the browser, kept out of the product: a build of the app whose registry includes the
 * gadgets fixture (vite.e2e.config.ts, into dist-e2e/), and a server entry (this file, run with tsx) that
 * registers the same fixture resources next to the real ones, applies their migrations and loads their labels.
 */
export const DIST_E2E = path.join(repoRoot, 'dist-e2e');
const ENTRY = path.relative(repoRoot, fileURLToPath(import.meta.url));
const FIXTURE_MIGRATIONS = path.join(repoRoot, 'tests', 'fixtures', 'migrations');
const STAMP = path.join(DIST_E2E, '.build-stamp.json');
/** Inputs of the fixture build beyond the product's (scripts/lib/frontend.ts BUILD_INPUTS). */
const EXTRA_INPUTS = ['tests/fixtures', 'vite.e2e.config.ts'];

/**
 * Builds dist-e2e/ unless it holds a build of the current inputs; logs why and how long it took. Returns the
 * build time in ms (0 when up to date).
 */
export async function ensureFixtureBuilt(log: (line: string) => void): Promise<number> {
  const inputs = fixtureInputs();
  const stamp = readStamp();
  if (stamp && stamp.newestMtimeMs === inputs.newestMtimeMs && stamp.fileCount === inputs.fileCount) {
    log('fixture build: dist-e2e/ is up to date (no build needed)');
    return 0;
  }
  log(
    `fixture build: building dist-e2e/ with vite.e2e.config.ts (${stamp ? 'sources changed' : 'no build yet'}) ...`,
  );
  const started = performance.now();
  await viteProductionBuild({
    root: repoRoot,
    configFile: path.join(repoRoot, 'vite.e2e.config.ts'),
    logLevel: 'error',
    build: { outDir: DIST_E2E, emptyOutDir: true },
  });
  fs.writeFileSync(STAMP, JSON.stringify({ ...inputs, builtAt: new Date().toISOString() }, null, 2) + '\n');
  const ms = performance.now() - started;
  log(`fixture build: built dist-e2e/ in ${(ms / 1000).toFixed(1)} s`);
  return ms;
}

/**
 * Builds the fixture app when stale, then starts this file as a dedicated server serving dist-e2e/.
 *
 * @example
 * const server = await startFixtureServer();
 * afterAll(() => server.stop());
 */
export async function startFixtureServer(
  log: (line: string) => void = (line) => process.stdout.write(`[e2e] ${line}\n`),
  /** More environment for the server (`{ SMTP_URL: smtp.url }` for the fixture's mail hook). */
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<E2eServer> {
  await ensureFixtureBuilt(log);
  return startServer({ entry: ENTRY, extraEnv: { ...extraEnv, DIST_DIR: DIST_E2E }, log });
}

function fixtureInputs(): InputsFingerprint {
  const product = fingerprintInputs(repoRoot);
  let { newestMtimeMs, fileCount } = product;
  const visit = (file: string): void => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
      return;
    }
    fileCount += 1;
    newestMtimeMs = Math.max(newestMtimeMs, stat.mtimeMs);
  };
  for (const input of EXTRA_INPUTS) visit(path.join(repoRoot, input));
  return { newestMtimeMs, fileCount };
}

function readStamp(): InputsFingerprint | null {
  try {
    const raw = JSON.parse(fs.readFileSync(STAMP, 'utf8')) as Partial<InputsFingerprint>;
    if (typeof raw.newestMtimeMs !== 'number' || typeof raw.fileCount !== 'number') return null;
    return { newestMtimeMs: raw.newestMtimeMs, fileCount: raw.fileCount };
  } catch {
    return null;
  }
}

/**
 * The server entry: server/main.ts's start-up with the fixture resources registered as a second resources
 * module (their own migrations directory and snapshots) and their labels in the catalogues.
 */
async function serve(): Promise<void> {
  const [
    { buildApp },
    { ensureFirstAdmin },
    { loadConfig },
    { openDatabase },
    migrations,
    engine,
    mods,
    fixtures,
  ] = await Promise.all([
    import('../../../server/app.ts'),
    import('../../../server/bootstrap.ts'),
    import('../../../server/config.ts'),
    import('../../../server/db/index.ts'),
    import('../../../server/db/migrate.ts'),
    import('../../../server/engine/module.ts'),
    import('../../../server/modules/index.ts'),
    import('../../fixtures/gadgets.ts'),
    import('../../fixtures/registry.ts'),
  ]);
  const { fixturePages } = await import('../../fixtures/pages.ts');
  const { fixtureHooks } = await import('../../fixtures/hooks.ts');
  const config = loadConfig(process.env);
  const db = await openDatabase(config);
  await migrations.migrate(db);
  for (const m of migrations.readMigrations(FIXTURE_MIGRATIONS)) await db.exec(m.sql);
  await ensureFirstAdmin(db, { username: config.adminUsername, password: config.adminPassword });
  // The dictionary the gadgets' `category` field reads (tests/fixtures/gadgets.ts), so its lists and forms
  // get their choices as a real deployment would (without it, every gadget screen asked for it and got a 404).
  await db.query(
    'INSERT INTO dictionary_types (name, slug, data) VALUES ($1, $2, $3) ON CONFLICT (slug) DO NOTHING',
    [
      'Gadget category',
      'gadget_category',
      JSON.stringify([{ label: 'Kitchen tools', value: 'kitchen', state: true, memo: '' }]),
    ],
  );
  const fixtureModule = {
    ...engine.createResourcesModule({
      resources: fixtures.fixtureResources,
      migrationsDir: FIXTURE_MIGRATIONS,
      pages: fixturePages,
      hooks: fixtureHooks,
    }),
    name: 'fixture-resources',
  };
  const app = await buildApp({ db, config, modules: [...mods.modules, fixtureModule] });
  const shutdown = async () => {
    try {
      await app.close();
      await db.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
  await app.listen({ port: config.port, host: config.host });
}

const isEntry = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntry && process.argv[2] === '--build') {
  // `tsx tests/e2e/helpers/fixture-server.ts --build`: only the build, which the global setup runs in a
  // process of its own beside the product's build (Vite builds on one thread; the machine has two cores).
  ensureFixtureBuilt((line) => process.stdout.write(`[e2e] ${line}\n`)).catch((err: unknown) => {
    process.stderr.write(
      `Fixture build failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  });
} else if (isEntry) {
  serve().catch((err: unknown) => {
    process.stderr.write(
      `Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  });
}
