import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import type { FileStorage } from '../storage/index.ts';

/** What every feature module receives when the app is built. */
export interface AppContext {
  db: Db;
  config: Config;
  log: Logger;
  /** Where assets, backups and CSV job files (`jobs/`) live (STORAGE: local, postgres or s3). */
  storage: FileStorage;
  /**
   * The app will listen (startServer): work that serving does not need (pg-boss, the task scheduler) starts
   * once it listens instead of holding up `ready`. Unset for apps used through `inject` (tests).
   */
  startsAfterListen?: boolean;
}

/**
 * A feature module: a name and a function that adds its routes (all under /api) and hooks. Modules are
 * listed in `server/modules/index.ts`. Example:
 * `export const helloModule: AppModule = { name: 'hello', register: (app) => route(app, { method: 'GET', url: '/api/hello', ... }) }`
 * (core/route.ts declares a route's inputs and answers once).
 */
export interface AppModule {
  name: string;
  /** Query parameters of this module's URLs whose values must never be logged (see core/logger.ts). */
  sensitiveQuery?: readonly string[];
  register(app: FastifyInstance, ctx: AppContext): void | Promise<void>;
}
