import type PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { DEFAULT_LOCALE, LOCALES, translate, type Locale } from '../../locales/index.ts';
import type { Db } from '../db/index.ts';
import { BOSS_SCHEMA } from './counts.ts';
import type { QueueDefinition } from './types.ts';

/** A node is gone once its heartbeat is older than this many intervals (as the node list says). */
export const GONE_AFTER_BEATS = 3;
/**
 * Passes in a row that must succeed before this node settles anyone's work: after a database outage every
 * node's last heartbeat is old, and the others need a beat or two to show they are alive again.
 */
const SETTLED_PASSES = GONE_AFTER_BEATS;
/** Marks a job already run once more after its server died (in its data, shown on the job queues page). */
const RERUN_MARK = 'rerun_after_server_stopped';

export interface OrphanReaper {
  /** One pass now (the timer runs them every heartbeat interval); resolves to the jobs settled. */
  pass(): Promise<number>;
  stop(): void;
}

/**
 * Work cut off by a crash (issue 28, item 6). Every running job carries the id of the node running it (the
 * runtime's claim, in the job's `output`), and every node keeps its heartbeat in `cluster_nodes`. Each node
 * with jobs on looks, every heartbeat interval, for active jobs of the queues it works whose node has not
 * beaten for three intervals (the node list calls it gone), takes each over in one conditional UPDATE (so
 * two survivors never settle one job twice) and settles it as its queue says (`orphaned`): run once more,
 * fail, or settle from what it had done. pg-boss's own expiry (hours) stays the last resort, for a job whose
 * server died between the fetch and the claim.
 * Example: `const reaper = startOrphanReaper({ db, boss, node, log, intervalSeconds: 10, working })`.
 */
export function startOrphanReaper({
  db,
  boss,
  node,
  log,
  intervalSeconds,
  working,
}: {
  db: Db;
  boss: PgBoss;
  node: string;
  log: Logger;
  intervalSeconds: number;
  working: ReadonlyMap<string, QueueDefinition<never>>;
}): OrphanReaper {
  let passes = 0;
  let running: Promise<number> | null = null;

  const settle = async (job: TakenJob) => {
    const definition = working.get(job.name);
    const policy = definition?.orphaned ?? 'fail';
    const locale = localeOf(job.data);
    if (policy === 'retry') {
      const message = translate(locale, 'system.jobs.errors.server_stopped_retried');
      const { rows } = await db.query(
        `UPDATE ${BOSS_SCHEMA}.job
            SET state = 'retry', start_after = now(), output = jsonb_build_object('message', $3::text),
                data = COALESCE(data, '{}'::jsonb) || jsonb_build_object('${RERUN_MARK}', true)
          WHERE name = $1 AND id = $2 AND state = 'active' AND NOT COALESCE(data ? '${RERUN_MARK}', false)
          RETURNING id`,
        [job.name, job.id, message],
      );
      if (rows.length) return 'retried';
    }
    const message = translate(locale, 'system.jobs.errors.server_stopped');
    if (typeof policy === 'function') {
      const outcome = await policy({ id: job.id, data: job.data as never, message });
      if (outcome.state === 'completed') {
        const output = asOutput(outcome.output);
        if (output) await boss.complete(job.name, job.id, output);
        else await boss.complete(job.name, job.id);
        return 'completed';
      }
    }
    await boss.fail(job.name, job.id, { message });
    return 'failed';
  };

  const passOnce = async (): Promise<number> => {
    const queues = [...working.keys()];
    if (!queues.length) return 0;
    // Taken over by this node in one statement: a second survivor's UPDATE finds the new owner alive.
    const { rows } = await db.query<TakenJob>(
      `UPDATE ${BOSS_SCHEMA}.job j SET output = jsonb_build_object('node', $2::text, 'taken_from', j.output->>'node')
        WHERE j.state = 'active' AND j.name = ANY($1::text[]) AND j.output->>'node' IS NOT NULL
          AND j.output->>'node' <> $2
          AND EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.id = j.output->>'node'
                        AND n.last_seen < now() - make_interval(secs => $3))
        RETURNING j.id::text AS id, j.name, j.data, j.output->>'taken_from' AS taken_from`,
      [queues, node, intervalSeconds * GONE_AFTER_BEATS],
    );
    for (const job of rows) {
      try {
        const outcome = await settle(job);
        log.warn(
          { queue: job.name, job: job.id, node: job.taken_from, outcome },
          'a job whose server stopped was settled',
        );
      } catch (err) {
        // Still claimed by this node: if it dies too, the next survivor takes the job over.
        log.error({ err, queue: job.name, job: job.id }, 'could not settle a job whose server stopped');
      }
    }
    return rows.length;
  };

  const reaper: OrphanReaper = {
    pass() {
      running ??= passOnce().finally(() => {
        running = null;
      });
      return running;
    },
    stop() {
      clearInterval(timer);
    },
  };
  const timer = setInterval(() => {
    // The first passes only count: see SETTLED_PASSES. A failed pass starts the count again.
    const check =
      passes >= SETTLED_PASSES
        ? reaper.pass()
        : db.query(`SELECT 1 FROM ${BOSS_SCHEMA}.job LIMIT 0`).then(() => 0);
    check.then(
      () => {
        passes += 1;
      },
      (err: unknown) => {
        if (passes > 0) log.warn({ err }, 'looking for jobs whose server stopped failed');
        passes = 0;
      },
    );
  }, intervalSeconds * 1000);
  timer.unref();
  return reaper;
}

/** A handler's result as pg-boss stores it: none, an object as it is, anything else as `{ value }`. */
export function asOutput(result: unknown): object | null {
  if (result === null || result === undefined) return null;
  return typeof result === 'object' && !Array.isArray(result) ? result : { value: result };
}

interface TakenJob {
  id: string;
  name: string;
  data: unknown;
  taken_from: string;
}

function localeOf(data: unknown): Locale {
  const locale = (data as { locale?: unknown } | null)?.locale;
  return (LOCALES as readonly string[]).includes(locale as string) ? (locale as Locale) : DEFAULT_LOCALE;
}
