import { z } from 'zod';
import { purgeAuthRows } from '../../auth/purge.ts';
import { removeOldCsvFiles } from '../../engine/csv-files.ts';
import { trimActivityLog } from '../activities/trim.ts';
import { purgeWechatRows } from '../wechat/index.ts';
import type { AppContext } from '../../core/app-module.ts';
import { backupDatabase } from './backup.ts';
import { cleanTempUploads } from './cleanTemp.ts';

/**
 * What a scheduled task may call: a registered handler, never a free-text target. `params` validates the
 * task's parameters (and gives the form its fields); `description` is a locale key. What `run` returns is
 * stored as the run's result.
 */
export interface TaskHandler<P extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  params: P;
  run(ctx: AppContext, params: z.output<P>): Promise<unknown>;
}

const handlers = new Map<string, TaskHandler>();

/**
 * Registers a handler tasks can choose (a module calls it at import time). Example:
 * `registerTaskHandler({ name: 'reports.mail', description: 'reports.tasks.mail', params: z.object({}), run })`
 */
export function registerTaskHandler<P extends z.ZodObject>(handler: TaskHandler<P>): void {
  handlers.set(handler.name, handler as unknown as TaskHandler);
}

export function taskHandler(name: string): TaskHandler | undefined {
  return handlers.get(name);
}

export function taskHandlers(): TaskHandler[] {
  return [...handlers.values()];
}

/** A handler as the API describes it: name, description key and the JSON Schema of its parameters. */
export function describeHandler(handler: TaskHandler) {
  return {
    name: handler.name,
    description: handler.description,
    params_schema: z.toJSONSchema(handler.params, { io: 'input', unrepresentable: 'any' }),
  };
}

registerTaskHandler({
  name: 'auth.purge',
  description: 'system.tasks.handlers.auth_purge',
  params: z.object({}).strict(),
  run: async ({ db }) => ({ ...(await purgeAuthRows(db)), wechat: await purgeWechatRows(db) }),
});

registerTaskHandler({
  name: 'activities.trim',
  description: 'system.tasks.handlers.activities_trim',
  params: z.object({}).strict(),
  run: async ({ db }) => ({ removed: await trimActivityLog(db) }),
});

registerTaskHandler({
  name: 'database.backup',
  description: 'system.tasks.handlers.database_backup',
  params: z
    .object({
      /** Backups kept in DATA_DIR/backups; older ones are deleted after a successful backup. */
      keep: z.number().int().min(1).max(365).default(7),
    })
    .strict(),
  run: (ctx, params) => backupDatabase(ctx, params),
});

registerTaskHandler({
  name: 'files.clean_temp',
  description: 'system.tasks.handlers.files_clean_temp',
  params: z
    .object({
      /** Staged uploads older than this are abandoned (an upload in progress is younger). */
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
    csv_files: await removeOldCsvFiles(ctx.config.dataDir, params.older_than_hours),
  }),
});
