import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import type { Logger } from 'pino';
import { buildApp } from '../../server/app.ts';
import { modules as defaultModules, resourceHooks, taskHandlers } from '../../server/modules/index.ts';
import { createJobsModule } from '../../server/modules/jobs/index.ts';
import type { TaskHandler } from '../../server/modules/tasks/handlers.ts';
import type { AppModule } from '../../server/core/app-module.ts';
import { ensureFirstAdmin } from '../../server/bootstrap.ts';
import { loadConfig, type Config } from '../../server/config.ts';
import { issueToken } from '../../server/credentials/tokens.ts';
import type { Db } from '../../server/db/index.ts';
import type { Resource } from '../../resources/define.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import type { ResourceHooksTable } from '../../server/engine/hooks.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { openStorage, type FileStorage } from '../../server/storage/index.ts';
import { createTestDb } from './db.ts';

export const ADMIN = { username: 'admin', password: 'correct horse battery staple' };

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** The app's asset storage (the driver `config.storage` names: local in DATA_DIR/uploads by default). */
  storage: FileStorage;
  /** Connection URL when running on PostgreSQL, for tests that start a second server. */
  dbUrl: string | null;
  /** An access token of the first administrator (issued directly, not through the login route). */
  adminToken(): Promise<string>;
  /** `app.inject` with JSON defaults and optional Bearer token. */
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * The real server on a fresh, migrated database (PGlite, or PostgreSQL under `npm run test:pg`), with the
 * first administrator created. Example: `const t = await createTestApp(); await t.request({ url: '/api/v1' })`.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  {
    extraModules = [],
    extraTaskHandlers = [],
    resources,
    migrationsDir,
    hooks = {},
    logger: customLogger,
  }: {
    extraModules?: AppModule[];
    /** Task handlers this test offers besides the product's (declared with `defineTaskHandler`). */
    extraTaskHandlers?: TaskHandler[];
    /** The server's pino logger, e.g. one writing to a stream the test reads; silent by default. */
    logger?: Logger;
    /** Registers these resources instead of resources/index.ts, after applying `migrationsDir`'s SQL. */
    resources?: Resource[];
    migrationsDir?: string;
    /** Resource hooks besides the product's, for `resources` (e.g. a fixture's beforeWrite rule). */
    hooks?: ResourceHooksTable;
  } = {},
): Promise<TestApp> {
  const testDb = await createTestDb();
  const { db } = testDb;
  let modules = defaultModules;
  if (resources) {
    for (const m of migrationsDir ? readMigrations(migrationsDir) : []) await db.exec(m.sql);
    const engine = createResourcesModule({ resources, migrationsDir, hooks: { ...resourceHooks, ...hooks } });
    modules = defaultModules.map((m) => (m.name === engine.name ? engine : m));
  }
  if (extraTaskHandlers.length) {
    const jobsModule = createJobsModule({ taskHandlers: [...taskHandlers, ...extraTaskHandlers] });
    modules = modules.map((m) => (m.name === jobsModule.name ? jobsModule : m));
  }
  const config: Config = {
    ...loadConfig({ DATA_DIR: `/tmp/admin-test-${process.pid}` }),
    logToFile: false,
    distDir: '/nonexistent-dist',
    // Under test:pg the throwaway database's URL, as DATABASE_URL would give it (pg-boss, pg_dump use it).
    databaseUrl: testDb.url,
    // pg-boss is opt-in per test app (`createTestApp({ jobs: true })`), so the rest of the suite stays fast.
    jobs: false,
    ...overrides,
  };
  await ensureFirstAdmin(db, ADMIN);
  const logger = customLogger ?? (overrides.logToFile ? undefined : pino({ level: 'silent' }));
  const storage = openStorage(config, db);
  const app = await buildApp({ db, config, logger, modules: [...modules, ...extraModules], storage });
  await app.ready();
  let token: string | null = null;
  return {
    app,
    db,
    config,
    storage,
    dbUrl: testDb.url,
    async adminToken() {
      if (token) return token;
      const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [
        ADMIN.username,
      ]);
      token = (await issueToken(db, { userId: rows[0]!.id, remember: false })).accessToken;
      return token;
    },
    request({ token: bearer, headers, ...opts }) {
      return app.inject({
        ...opts,
        headers: { ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...headers },
      } as InjectOptions);
    },
    async close() {
      await app.close();
      await storage.close();
      await testDb.drop();
    },
  };
}
