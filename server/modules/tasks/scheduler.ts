import { nodeFor } from '../../cluster/nodes.ts';
import { classifyDbError } from '../../core/db-errors.ts';
import { safeError } from '../../core/http.ts';
import { BOSS_SCHEMA } from '../../jobs/counts.ts';
import { contended, type JobsRuntime } from '../../jobs/runtime.ts';
import type { AppContext } from '../../core/app-module.ts';
import type { TaskHandlers } from './handlers.ts';
import { BackupError } from './backup.ts';
import { DEFAULT_LOCALE, translate, type Locale } from '../../../locales/index.ts';
import { GONE_AFTER_BEATS } from '../../jobs/orphans.ts';
import {
  allTaskRows,
  closeRun,
  closeStrandedRuns,
  findTaskRow,
  openRun,
  settleInterruptedRun,
  type TaskRow,
} from './store.ts';

/** pg-boss 10 keys a schedule by its queue, so each task has its own queue. */
export const taskQueue = (id: string) => `task-${id}`;
const TASK_QUEUE = /^task-(\d{1,19})$/;

/** How often every server re-reads the tasks (another server may have created or changed one). */
const RESYNC_MS = 15_000;
/** Backoff of a run's close that met an unreachable database (closeLater). */
const CLOSE_RETRY_MIN_MS = 500;
const CLOSE_RETRY_MAX_MS = 5_000;

export interface TaskRunData {
  task_id: string;
  trigger?: 'cron' | 'manual';
  user_id?: string | null;
}

export interface TaskScheduler {
  /** Brings pg-boss in line with the tasks table (schedules, queues, workers). Safe to call any time. */
  sync(): Promise<void>;
  start(): Promise<void>;
  stop(): void;
  /** Runs a task now in this process (no pg-boss), recording the run; for servers with jobs off. */
  runInline(taskId: string, userId: string | null): Promise<string | null>;
  /** Closes runs made in a request whose server stopped (store.ts closeStrandedRuns), the error in `locale`. */
  closeStranded(locale?: Locale): Promise<number>;
}

/**
 * Scheduled tasks on pg-boss. Each task row maps to a pg-boss queue `task-<id>` with a schedule (cron, time
 * zone) while the task is enabled. pg-boss's timekeeper (on whichever server wins its cron lock for the
 * interval) puts one job per cron minute in the queue, and exactly one worker takes it (SKIP LOCKED), so N
 * servers run each scheduled run once. Every server works every task queue, so a run survives the loss of
 * any one server.
 */
export function createTaskScheduler(
  ctx: AppContext,
  jobs: JobsRuntime,
  handlers: TaskHandlers,
): TaskScheduler {
  const applied = new Map<string, string>();
  let timer: NodeJS.Timeout | null = null;
  let syncing: Promise<void> | null = null;

  const execute = async (
    taskId: string,
    meta: { trigger: 'cron' | 'manual'; jobId: string | null; userId: string | null },
  ) => {
    const runId = await openRun(ctx.db, {
      taskId,
      trigger: meta.trigger,
      jobId: meta.jobId,
      userId: meta.userId,
      // A run in a request has no job for the reaper: it names its node (closeStrandedRuns).
      node: meta.jobId ? null : nodeFor(ctx.db).id,
    });
    if (!runId) return null;
    try {
      const task = await findTaskRow(ctx.db, taskId);
      const handler = task ? handlers.get(task.handler) : undefined;
      if (!task || !handler) throw new Error(`no handler for task ${taskId}`);
      const params = handler.params.parse(task.params ?? {});
      const result = await handler.run(ctx, params);
      await closeRun(ctx.db, runId, { status: 'succeeded', result: result ?? null });
      return runId;
    } catch (error) {
      // A database that went away is said in plain words, not as a driver's or pg_dump's text; a failed
      // backup by its localized message and reason class (pg_dump's stderr names the host and database).
      const message =
        error instanceof BackupError
          ? translate(DEFAULT_LOCALE, error.messageKey)
          : classifyDbError(error) === 'unavailable'
            ? translate(DEFAULT_LOCALE, 'errors.db_unavailable')
            : error instanceof Error
              ? error.message
              : String(error);
      const result = error instanceof BackupError ? { reason: error.reason } : undefined;
      ctx.log.warn({ task: taskId, err: safeError(error) }, 'scheduled task failed');
      await closeRun(ctx.db, runId, { status: 'failed', error: message, result }).catch(
        (closeError: unknown) => {
          closeLater(runId, message);
          throw closeError;
        },
      );
      throw error;
    }
  };

  // A run whose close met an unreachable database (the one that failed it, usually) is closed once the
  // database is back: closeStrandedRuns and the job reaper only close the runs of servers that stopped, so
  // on a server that lives on the run would stay `running` for good.
  const unclosed = new Map<string, string>();
  let closeTimer: NodeJS.Timeout | null = null;
  let closeDelay = CLOSE_RETRY_MIN_MS;
  const closeLater = (runId: string, error: string) => {
    unclosed.set(runId, error);
    scheduleCloses();
  };
  const scheduleCloses = () => {
    if (closeTimer) return;
    closeTimer = setTimeout(() => {
      closeTimer = null;
      void closeUnclosed();
    }, closeDelay);
    closeTimer.unref();
  };
  const closeUnclosed = async () => {
    for (const [runId, error] of unclosed) {
      try {
        await closeRun(ctx.db, runId, { status: 'failed', error });
        unclosed.delete(runId);
      } catch {
        // Still away: all of them wait for the next try.
        closeDelay = Math.min(closeDelay * 2, CLOSE_RETRY_MAX_MS);
        return scheduleCloses();
      }
    }
    closeDelay = CLOSE_RETRY_MIN_MS;
  };

  const apply = async (task: TaskRow) => {
    const name = taskQueue(String(task.id));
    await jobs.work<TaskRunData>({
      name,
      // A failed run is recorded and waits for the next cron time (or a retry from the job queues page).
      options: { retryLimit: 0, expireInSeconds: 60 * 60 },
      handler: async (job) =>
        execute(String(task.id), {
          trigger: job.data.trigger ?? 'cron',
          jobId: job.id,
          userId: job.data.user_id ?? null,
        }).then((runId) => ({ run_id: runId })),
      // Its server died: the run is closed as failed (or, if it had finished, the job completes); never rerun.
      orphaned: async ({ id, message }) => {
        const run = await settleInterruptedRun(ctx.db, id, message);
        return run.status === 'succeeded'
          ? { state: 'completed', output: { run_id: run.runId } }
          : { state: 'failed' };
      },
    });
    const boss = jobs.boss!;
    await contended(
      ctx.db,
      () =>
        task.state
          ? boss.schedule(name, task.cron, { task_id: String(task.id) }, { tz: task.timezone, retryLimit: 0 })
          : boss.unschedule(name),
      ctx.log,
    );
  };

  const syncOnce = async () => {
    if (!jobs.isRunning) return;
    const rows = await allTaskRows(ctx.db);
    const seen = new Set<string>();
    for (const task of rows) {
      const id = String(task.id);
      seen.add(id);
      const key = `${task.cron}|${task.timezone}|${task.state}|${new Date(task.updated_at).getTime()}`;
      if (applied.get(id) === key) continue;
      await apply(task);
      applied.set(id, key);
    }
    await scheduler.closeStranded();
    // Tasks deleted (here or on another server): stop working and drop their queues and schedules.
    // Each queue on its own: one that cannot be dropped now is retried by the next pass, never blocking the
    // others or the tasks that still exist.
    for (const queue of (await jobs.boss?.getQueues()) ?? []) {
      const id = TASK_QUEUE.exec(queue.name)?.[1];
      if (!id || seen.has(id)) continue;
      try {
        await jobs.offWork(queue.name);
        // Serialized with the other servers' queue set-up (issue 18), so two never race on pg-boss DDL.
        await contended(ctx.db, () => dropQueue(queue.name), ctx.log);
        applied.delete(id);
      } catch (err) {
        ctx.log.error(
          { queue: queue.name, err: safeError(err) },
          'could not drop the queue of a deleted task',
        );
      }
    }
  };

  /**
   * Drops a deleted task's queue with its jobs (done, queued or running), in one transaction. pg-boss's own
   * deleteQueue refuses a queue that still has jobs (its job partitions reference the queue ON DELETE
   * RESTRICT), which left the queue behind and every later sync failing.
   */
  const dropQueue = (name: string) =>
    ctx.db.transaction(async (tx) => {
      await tx.query(`DELETE FROM ${BOSS_SCHEMA}.job WHERE name = $1`, [name]);
      await tx.query(`SELECT ${BOSS_SCHEMA}.delete_queue($1)`, [name]);
    });

  const scheduler: TaskScheduler = {
    async sync() {
      // One pass at a time; a call during a pass waits for it and then runs its own.
      while (syncing) await syncing;
      syncing = syncOnce().finally(() => {
        syncing = null;
      });
      return syncing;
    },
    async start() {
      await scheduler.sync();
      timer = setInterval(() => {
        scheduler.sync().catch((err: unknown) => ctx.log.error({ err }, 'task sync failed'));
      }, RESYNC_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      applied.clear();
    },
    runInline: (taskId, userId) => execute(taskId, { trigger: 'manual', jobId: null, userId }),
    closeStranded: (locale = DEFAULT_LOCALE) =>
      closeStrandedRuns(ctx.db, {
        me: nodeFor(ctx.db).id,
        goneAfterSeconds: ctx.config.heartbeatSeconds * GONE_AFTER_BEATS,
        error: translate(locale, 'system.jobs.errors.server_stopped'),
      }),
  };
  return scheduler;
}
