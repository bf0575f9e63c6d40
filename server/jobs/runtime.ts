import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { safeError } from '../core/http.ts';
import type { Db } from '../db/index.ts';
import { publishEvent } from '../events/hub.ts';
import { PERMISSION } from '../../schemas/permissions.ts';
import { bossDbOf, type BossDb } from './adapter.ts';
import { BOSS_SCHEMA } from './counts.ts';
import { installTick } from './tick.ts';
import { asOutput, startOrphanReaper, type OrphanReaper } from './orphans.ts';
import { nodeFor } from '../cluster/nodes.ts';

export type { JobContext, OrphanOutcome, QueueDefinition } from './types.ts';
import type { QueueDefinition } from './types.ts';

/** Queues every server works, declared by the modules that own them (before the app starts). */
const declared = new Map<string, QueueDefinition<never>>();

/**
 * Declares a queue worked by every server that runs jobs. Example:
 * `defineQueue({ name: 'mail.send', options: { retryLimit: 3 }, handler: async ({ data }) => send(data) })`
 */
export function defineQueue<T>(definition: QueueDefinition<T>): void {
  declared.set(definition.name, definition as QueueDefinition<never>);
}

/** The jobs side of one app: pg-boss over the app's database, started and stopped with the app. */
export interface JobsRuntime {
  readonly isRunning: boolean;
  /** The pg-boss instance while running (null when jobs are off). */
  readonly boss: PgBoss | null;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Creates the queue when needed and works it in this process (a declared queue, or a dynamic one). */
  work<T>(definition: QueueDefinition<T>): Promise<void>;
  offWork(queue: string): Promise<void>;
  /** Enqueues a job; resolves to its id (null when a singleton/throttle option dropped it). */
  send(queue: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
  /**
   * Enqueues a job now when the runtime runs, else once it has started (a server starts it a moment after
   * it listens, and again after a failed start): what a write's after-commit work sends in that window is
   * held in memory (the newest HELD_MAX) instead of failing. Throws on a server that never runs jobs
   * (`JOBS=0`). Example: `await jobs.sendOnceRunning('mail.send', { id })`.
   */
  sendOnceRunning(queue: string, data: object, options?: PgBoss.SendOptions): Promise<void>;
}

/** Sends held for a runtime that is starting; past this the oldest are dropped (logged). */
const HELD_MAX = 10_000;

/**
 * Builds the runtime. On PostgreSQL (DATABASE_URL) pg-boss gets the connection string and its own small
 * pool; on PGlite (or a Db opened without a URL in config, as the test helper does) it runs through the
 * adapter of ./adapter.ts. pg-boss keeps its tables in the `pgboss` schema of the same database.
 * Example: `const jobs = createJobsRuntime({ db, config, log }); await jobs.start();`
 */
export function createJobsRuntime({ db, config, log }: { db: Db; config: Config; log: Logger }): JobsRuntime {
  let boss: PgBoss | null = null;
  const working = new Map<string, QueueDefinition<never>>();
  /** This process's pg-boss worker of each queue it works: woken when this process sends that queue a job. */
  const workers = new Map<string, string>();
  const node = nodeFor(db).id;
  let reaper: OrphanReaper | null = null;
  /** Queues given to `work` before the start (modules registering in onReady): worked once started. */
  const pending = new Map<string, QueueDefinition<never>>();
  /** Sends made before the runtime was up (`sendOnceRunning`), sent once every queue is worked. */
  const held: { queue: string; data: object; options: PgBoss.SendOptions | undefined }[] = [];
  /** Every queue is worked: what `sendOnceRunning` sends goes out at once. */
  let up = false;
  const connection: PgBoss.ConstructorOptions =
    db.kind === 'postgres' && config.databaseUrl
      ? { connectionString: config.databaseUrl, max: 4 }
      : { db: bossDbOf(db) };

  /** A started pg-boss; an instance whose start failed is stopped and dropped (pg-boss cannot restart it). */
  const startBoss = async () => {
    // Loaded here, not when the server starts: the job runtime starts once the server listens.
    const { default: Boss } = await import('pg-boss');
    if (config.jobsTickSeconds < 60) installTick();
    const tick = config.jobsTickSeconds;
    const instance = new Boss({
      ...connection,
      schema: BOSS_SCHEMA,
      application_name: 'admin-jobs',
      pollingIntervalSeconds: config.jobsPollSeconds,
      // A check at least twice a tick, so no cron "minute" passes unchecked.
      cronMonitorIntervalSeconds: Math.max(1, Math.min(config.jobsCronSeconds, Math.floor(tick / 2))),
      cronWorkerIntervalSeconds: Math.max(1, Math.min(5, config.jobsCronSeconds, Math.floor(tick / 2))),
      // Expiry and archiving: every two ticks (pg-boss's own default of 120 s at the 60-second tick).
      maintenanceIntervalSeconds: 2 * tick,
      // No monitor-states timer: queueCounts() reads the counts when asked.
      ...(tick < 60 ? { tickSeconds: tick } : {}),
    } as PgBoss.ConstructorOptions);
    instance.on('error', (err: Error) => log.error({ err }, 'job queue error'));
    settleCompletions(instance.getDb() as BossDb, log);
    try {
      await instance.start();
    } catch (error) {
      await instance.stop({ graceful: false, wait: true, timeout: 1000 }).catch(() => undefined);
      throw error;
    }
    return instance;
  };

  const runtime: JobsRuntime = {
    get isRunning() {
      return boss !== null;
    },
    get boss() {
      return boss;
    },
    async start() {
      if (boss || !config.jobs) return;
      boss = await contended(db, startBoss, log);
      try {
        for (const definition of [...declared.values(), ...pending.values()]) await runtime.work(definition);
      } catch (error) {
        await runtime.stop().catch(() => undefined);
        throw error;
      }
      reaper = startOrphanReaper({ db, boss, node, log, intervalSeconds: config.heartbeatSeconds, working });
      up = true;
      for (const { queue, data, options } of held.splice(0))
        await runtime.send(queue, data, options).catch((err: unknown) => {
          log.warn({ queue, err: safeError(err) }, 'a job held for the start could not be sent');
        });
    },
    async stop() {
      const instance = boss;
      up = false;
      if (held.length)
        log.warn(
          { held: held.length },
          'jobs held for the start not sent: they go if it starts again (outbox mail waits for the sweep)',
        );
      if (!instance) return;
      boss = null;
      reaper?.stop();
      reaper = null;
      working.clear();
      workers.clear();
      // Waits up to 10 s for running handlers, then marks what is left failed (retried elsewhere).
      await instance.stop({ graceful: true, timeout: 10_000, wait: true });
    },
    async work(definition) {
      if (!boss) pending.set(definition.name, definition as QueueDefinition<never>);
      if (!boss || working.has(definition.name)) return;
      const instance = boss;
      await contended(
        db,
        () => instance.createQueue(definition.name, { name: definition.name, ...definition.options }),
        log,
      );
      working.set(definition.name, definition as QueueDefinition<never>);
      const batchSize = Math.max(1, definition.concurrency ?? 1);
      const run = async (job: PgBoss.Job<Record<string, unknown>>) => {
        const audience = definition.audience?.(job.data as never) ?? null;
        const event = async (data: Record<string, unknown>) => {
          const payload = { queue: job.name, id: job.id, ...data };
          await publishEvent(db, { type: 'job', data: payload, permission });
          if (audience) await publishEvent(db, { type: 'job', data: payload, ...audience });
        };
        let outcome: { result: unknown } | { message: string };
        try {
          // The claim: which node runs the job, so a survivor can settle it if this node dies.
          await claimJob(db, job.name, job.id, node);
          const result = await definition.handler({
            id: job.id,
            queue: job.name,
            data: job.data as never,
            progress: async (percent, detail) => {
              const progress = await recordProgress(db, job.name, job.id, percent, detail);
              await event({ state: 'active', progress });
            },
          });
          outcome = { result };
        } catch (error) {
          // The message only (a handler's errors are plain): no stack in the job's output. The log names what
          // failed underneath (a handler's plain error carries it as its cause), without a stack either.
          outcome = { message: error instanceof Error ? error.message : String(error) };
          const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
          log.warn({ queue: job.name, job: job.id, err: safeError(cause) }, 'job failed');
        }
        if ('result' in outcome) {
          const output = asOutput(outcome.result);
          if (output) await instance.complete(job.name, job.id, output);
          else await instance.complete(job.name, job.id);
          await event({ state: 'completed', progress: 100 });
        } else {
          await instance.fail(job.name, job.id, { message: outcome.message });
          await event({ state: 'failed' });
        }
      };
      const worker: { id: string | null } = { id: null };
      worker.id = await instance.work<Record<string, unknown>>(
        definition.name,
        { pollingIntervalSeconds: config.jobsPollSeconds, batchSize },
        async (jobs) => {
          // Each job completes or fails by itself (pg-boss's own completion of the batch then finds nothing
          // active); a failure to record an end (the database away) leaves the job to expire or be reaped.
          await Promise.all(
            jobs.map((job) =>
              run(job).catch((err: unknown) =>
                log.warn({ err, queue: job.name }, 'could not record a job end'),
              ),
            ),
          );
          // A full batch: more may be waiting, so fetch again now instead of after the polling interval.
          if (jobs.length === batchSize && worker.id) instance.notifyWorker(worker.id);
          return null;
        },
      );
      workers.set(definition.name, worker.id);
      await definition.started?.();
    },
    async offWork(queue) {
      if (!boss || !working.has(queue)) return;
      working.delete(queue);
      workers.delete(queue);
      await boss.offWork(queue);
    },
    async send(queue, data, options = {}) {
      if (!boss) throw new Error('jobs are not running');
      const instance = boss;
      const id = await instance.send(queue, data, options);
      // A queue this process works fetches the job now rather than at its next poll (up to
      // JOBS_POLL_SECONDS later); a busy worker fetches again as soon as its batch ends. Other servers
      // still find the job at their own next poll.
      const worker = workers.get(queue);
      if (id && worker && !options.startAfter) instance.notifyWorker(worker);
      return id;
    },
    async sendOnceRunning(queue, data, options) {
      if (up && boss) {
        await runtime.send(queue, data, options);
        return;
      }
      if (!config.jobs) throw new Error('jobs are not running');
      if (held.length >= HELD_MAX) {
        held.shift();
        log.warn({ queue, held: HELD_MAX }, 'too many jobs held for the start: the oldest dropped');
      }
      held.push({ queue, data, options });
    },
  };
  return runtime;
}

/** Shared by every server: pg-boss schema, queue and schedule changes run one server at a time. */
const JOBS_DDL_LOCK = 7_317_003;
/** deadlock_detected, serialization_failure, unique_violation, duplicate_table, duplicate_object. */
const RACE_CODES = new Set(['40P01', '40001', '23505', '42P07', '42710']);
const ATTEMPTS = 6;

/**
 * Runs a pg-boss call that creates or changes shared objects (its schema on start, a queue's partition, a
 * schedule) so that servers starting together cannot deadlock each other: on PostgreSQL under a
 * transaction-level advisory lock held on one of the app's connections while the call runs on pg-boss's
 * own, and retried with a jittered backoff when it still loses a race (deadlock, unique violation, an
 * object another server created a moment earlier). PGlite has one connection and one process: no lock.
 * Example: `await contended(db, () => boss.createQueue('mail'), log)`.
 */
export async function contended<T>(db: Db, fn: () => Promise<T>, log?: Logger): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (db.kind !== 'postgres') return await fn();
      return await db.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock($1)', [JOBS_DDL_LOCK]);
        return fn();
      });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= ATTEMPTS || typeof code !== 'string' || !RACE_CODES.has(code)) throw error;
      log?.warn({ code, attempt }, 'job queue set-up raced another server; retrying');
      await new Promise((r) => setTimeout(r, 50 * 2 ** attempt * (0.5 + Math.random())));
    }
  }
}

/** Job events (`type: 'job'`, `{ queue, id, state, progress }`) reach streams holding the jobs page. */
const permission = PERMISSION.systemJobs;

/** Records the node running a job in its `output` (kept by progress, replaced by the job's end). */
async function claimJob(db: Db, queue: string, id: string, node: string): Promise<void> {
  await db.query(
    `UPDATE ${BOSS_SCHEMA}.job SET output = jsonb_build_object('node', $3::text)
      WHERE name = $1 AND id = $2 AND state = 'active'`,
    [queue, id, node],
  );
}

/** Keeps progress in the active job's `output` column (pg-boss replaces it with the result on completion). */
async function recordProgress(
  db: Db,
  queue: string,
  id: string,
  percent: number,
  detail: Record<string, unknown> = {},
): Promise<number> {
  const progress = Math.max(0, Math.min(100, Math.round(percent)));
  await db.query(
    `UPDATE ${BOSS_SCHEMA}.job SET output = COALESCE(output, '{}'::jsonb) || $3::jsonb
      WHERE name = $1 AND id = $2 AND state = 'active'`,
    [queue, id, JSON.stringify({ ...detail, progress })],
  );
  return progress;
}

/**
 * pg-boss 10's worker marks a job completed or failed without awaiting the call (manager.js `work`, its
 * `onFetch`: `this.complete(...)` / `this.fail(...)`), so a completion that fails because the database went
 * away (PostgreSQL stopped under a running job) is an unhandled rejection, which ends the process. Those two
 * statements are recognised by their text and a connection failure of theirs is logged and answered as "no
 * job changed": the job stays active and, once the database is back, expires and is retried like any job
 * whose server died (at-least-once, as before). Every other statement fails as usual (pg-boss awaits them).
 */
function settleCompletions(db: BossDb, log: Logger): void {
  const execute = db.executeSql.bind(db);
  db.executeSql = async (text, values) => {
    try {
      return await execute(text, values);
    } catch (error) {
      if (!isCompletion(text) || isAnsweredByServer(error)) throw error;
      log.warn(
        { err: error },
        'a job ended while the database was unreachable: it runs again once it expires',
      );
      return { rows: [{ count: '0' }] };
    }
  };
}

/** pg-boss 10's completeJobs and failJobsById plans (plans.js). */
function isCompletion(text: string): boolean {
  return (
    /SET completed_on = now\(\),\s*state = 'completed'/.test(text) ||
    (/DELETE FROM \S+\.job\s+WHERE name = \$1 AND id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\)/.test(text) &&
      text.includes("state < 'completed'"))
  );
}

/** An error PostgreSQL answered (SQLSTATE outside class 08/57, connection and shutdown) is a real one. */
function isAnsweredByServer(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !/^(08|57)/.test(code);
}
