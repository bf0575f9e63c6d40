import type { FastifyBaseLogger } from 'fastify';
import type { Actor } from '../../core/activity.ts';
import { writeActorActivity } from '../../engine/activity-log.ts';
import { AppError } from '../../core/errors.ts';
import { safeError } from '../../core/http.ts';
import type { Db } from '../../db/index.ts';
import type { TaskHandlers } from './handlers.ts';
import type { TaskScheduler } from './scheduler.ts';
import * as store from './store.ts';
import { validateTask } from './validate.ts';

/** What the task operations need: the database, the scheduler to bring in line, the handler catalogue. */
export interface TaskDeps {
  db: Db;
  scheduler: TaskScheduler;
  handlers: TaskHandlers;
  log: FastifyBaseLogger;
}

/**
 * The operations behind `v1/system/tasks` writes (no access check of their own; the routes check `.create`,
 * `.update` or `.delete`). Each validates, writes and audits in one transaction (`tasks.create` etc.,
 * subject `tasks`), then brings pg-boss in line, and answers the saved task.
 */
export async function createTask(deps: TaskDeps, { body, actor }: { body: unknown; actor: Actor }) {
  const input = validateTask(body, null, deps.handlers);
  const id = await deps.db.transaction(async (tx) => {
    const newId = await store.insertTask(tx, input);
    await writeActorActivity(tx, actor, audited('create', newId, diff(null, input)));
    return newId;
  });
  await syncAfterCommit(deps);
  return store.toRecord((await store.findTaskRow(deps.db, id))!);
}

export async function updateTask(
  deps: TaskDeps,
  { id, body, actor }: { id: string; body: unknown; actor: Actor },
) {
  await deps.db.transaction(async (tx) => {
    const before = await store.findTaskRow(tx, id, true);
    if (!before) throw AppError.notFound();
    const input = validateTask(body, before, deps.handlers);
    await store.updateTask(tx, id, input);
    const changes = diff(before, input);
    if (Object.keys(changes).length) await writeActorActivity(tx, actor, audited('update', id, changes));
  });
  await syncAfterCommit(deps);
  return store.toRecord((await store.findTaskRow(deps.db, id))!);
}

/** Deletes a task and its run history; its pg-boss queue goes with the next sync. */
export async function deleteTask(deps: TaskDeps, { id, actor }: { id: string; actor: Actor }): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const before = await store.findTaskRow(tx, id, true);
    if (!before) throw AppError.notFound();
    await store.deleteTask(tx, id);
    await writeActorActivity(tx, actor, audited('delete', id, diff(before, null)));
  });
  await syncAfterCommit(deps);
}

const AUDITED = ['name', 'handler', 'params', 'cron', 'timezone', 'state'] as const;

function audited(
  action: 'create' | 'update' | 'delete',
  subjectId: string,
  changes: Record<string, unknown>,
) {
  return { action: `tasks.${action}`, subjectType: 'tasks', subjectId, changes };
}

function diff(
  before: Partial<store.TaskInput> | null,
  after: Partial<store.TaskInput> | null,
): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of AUDITED) {
    const old = before?.[key] ?? null;
    const next = after?.[key] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(next)) changes[key] = [old, next];
  }
  return changes;
}

/**
 * Brings pg-boss in line after a committed change. The change is saved whatever happens here, so a failure
 * is logged, not answered: the scheduler's periodic resync (every 15 s) tries again.
 */
export async function syncAfterCommit({
  scheduler,
  log,
}: Pick<TaskDeps, 'scheduler' | 'log'>): Promise<void> {
  try {
    await scheduler.sync();
  } catch (err) {
    log.error({ err: safeError(err) }, 'task sync after a change failed; the periodic resync retries');
  }
}
