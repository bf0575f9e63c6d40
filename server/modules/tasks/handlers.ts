import * as z from 'zod';
import { purgeAuthRows } from '../../credentials/purge.ts';
import { removeOldCsvFiles } from '../../engine/csv/files.ts';
import { referencedStorageKeys } from '../../engine/stored-keys.ts';
import { removeOrphans } from '../../storage/orphans.ts';
import { purgeIdempotencyKeys } from '../../core/idempotency.ts';
import { trimActivityLog } from '../activities/index.ts';
import { servedResources } from '../../engine/served.ts';
import { purgeTrash } from '../../engine/trash-purge.ts';
import { purgeWechatRows } from '../wechat/index.ts';
import { purgeOidcRows } from '../oidc/index.ts';
import type { AppContext } from '../../core/app-module.ts';
import { backupDatabase } from './backup.ts';
import { cleanTempUploads } from './clean-temp.ts';

/**
 * What a scheduled task may call: a declared handler, never a free-text target. `params` validates the
 * task's parameters (and gives the form its fields); `description` is a locale key. What `run` returns is
 * stored as the run's result.
 */
export interface TaskHandler<P extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  params: P;
  run(ctx: AppContext, params: z.output<P>): Promise<unknown>;
}

/**
 * Declares a handler with its parameters' type checked against `run` (a module lists what it declares; the
 * app passes the lists to the jobs module where it is composed, server/modules/index.ts). Example:
 * `export const reportTasks = [defineTaskHandler({ name: 'reports.mail', description: 'reports.tasks.mail',
 * params: z.object({}), run })]`
 */
export function defineTaskHandler<P extends z.ZodObject>(handler: TaskHandler<P>): TaskHandler {
  return handler as unknown as TaskHandler;
}

/** The handlers a server offers, by name (the ones the app was composed with). */
export interface TaskHandlers {
  get(name: string): TaskHandler | undefined;
  all(): TaskHandler[];
}

/** A lookup over a list of handlers; a later handler of the same name replaces an earlier one. */
export function taskHandlerTable(list: readonly TaskHandler[]): TaskHandlers {
  const byName = new Map(list.map((h) => [h.name, h]));
  return { get: (name) => byName.get(name), all: () => [...byName.values()] };
}

/** A handler as the API describes it: name, description key and the JSON Schema of its parameters. */
export function describeHandler(handler: TaskHandler) {
  return {
    name: handler.name,
    description: handler.description,
    params_schema: z.toJSONSchema(handler.params, { io: 'input', unrepresentable: 'any' }),
  };
}

/** The maintenance handlers every server offers (the default list of server/modules/index.ts). */
export const maintenanceTaskHandlers: TaskHandler[] = [
  defineTaskHandler({
    name: 'auth.purge',
    description: 'system.tasks.handlers.auth_purge',
    params: z.object({}).strict(),
    run: async ({ db }) => ({
      ...(await purgeAuthRows(db)),
      wechat: await purgeWechatRows(db),
      oidc: await purgeOidcRows(db),
    }),
  }),
  defineTaskHandler({
    name: 'activities.trim',
    description: 'system.tasks.handlers.activities_trim',
    params: z.object({}).strict(),
    run: async ({ db }) => ({ removed: await trimActivityLog(db) }),
  }),
  defineTaskHandler({
    name: 'trash.purge',
    description: 'system.tasks.handlers.trash_purge',
    params: z.object({}).strict(),
    run: async ({ db }) => ({ purged: await purgeTrash(db, servedResources()) }),
  }),
  defineTaskHandler({
    name: 'database.backup',
    description: 'system.tasks.handlers.database_backup',
    params: z
      .object({
        /** Backups kept in DATA_DIR/backups; older ones are deleted after a successful backup. */
        keep: z.number().int().min(1).max(365).default(7),
      })
      .strict(),
    run: (ctx, params) => backupDatabase(ctx, params),
  }),
  defineTaskHandler({
    name: 'files.clean_temp',
    description: 'system.tasks.handlers.files_clean_temp',
    params: z
      .object({
        /**
         * Staged uploads, and stored uploads no asset refers to, older than this are abandoned (an upload in
         * progress, or one whose row is being inserted, is younger).
         */
        older_than_hours: z
          .number()
          .int()
          .min(1)
          .max(24 * 30)
          .default(24),
      })
      .strict(),
    run: async (ctx, params) => ({
      ...(await cleanTempUploads(ctx, params)),
      orphans: await removeOrphans(ctx.storage, {
        before: new Date(Date.now() - params.older_than_hours * 60 * 60 * 1000),
        isReferenced: (keys) => referencedStorageKeys(ctx.db, keys),
        log: ctx.log,
      }),
      csv_files: await removeOldCsvFiles(ctx.storage, params.older_than_hours),
      idempotency_keys: await purgeIdempotencyKeys(ctx.db),
    }),
  }),
];
