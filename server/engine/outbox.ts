import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { JobsRuntime, QueueDefinition } from '../jobs/runtime.ts';
import { resolveMailer, type MailMessage } from '../mail/mailer.ts';
import type { HookLogger } from './hooks.ts';

/**
 * The outbox of mail sent from resource hooks (hooks.ts `services.mail`, migration 0142): a row written in
 * the write's transaction, a pg-boss job queued after commit (one per row: its singleton key), sent by
 * whichever server works the queue. A send claims the row first, so two servers never send it twice; a
 * failed send releases it and the job is retried (`retryLimit`); a sent row is never sent again. A row no
 * job carries (written on a server that stopped before its runtime started, or whose retries all failed) is
 * queued again by the sweep (`outboxSweepQueue`) when a runtime starts and every minute after; a write made
 * while this server's runtime is starting is queued once it has (`JobsRuntime.sendOnceRunning`).
 */

/** The queue that sends outbox rows. */
export const OUTBOX_QUEUE = 'engine.outbox';

/** The queue whose job (on start and every minute: its pg-boss schedule) queues the missed rows again. */
export const OUTBOX_SWEEP_QUEUE = 'engine.outbox-sweep';

/** A row younger than this is left to the job its write queued. */
const SWEEP_AFTER_SECONDS = 60;

/** Rows queued again per sweep (the next sweep takes the rest). */
const SWEEP_BATCH = 500;

/** A claim older than this is taken to be a server that died mid-send. */
const CLAIM_SECONDS = 300;

/** Writes the mail in the caller's transaction; returns the row's id. */
export async function writeOutbox(tx: Queryable, message: MailMessage): Promise<string> {
  const payload = { to: message.to, subject: message.subject, text: message.text };
  const { rows } = await tx.query<{ id: string | number }>(
    `INSERT INTO engine_outbox (payload) VALUES ($1) RETURNING id`,
    [JSON.stringify(payload)],
  );
  return String(rows[0]!.id);
}

/**
 * Queues the row's send (after commit); while this server's job runtime is starting, once it has started.
 * A server that runs no jobs (`JOBS=0`) leaves the row to another server's sweep (logged).
 */
export async function enqueueOutbox(jobs: JobsRuntime | null, id: string, log: HookLogger): Promise<void> {
  try {
    if (!jobs) throw new Error('no job runtime');
    await jobs.sendOnceRunning(OUTBOX_QUEUE, { id }, { singletonKey: `outbox-${id}` });
  } catch {
    log.warn({ outbox_id: id }, 'jobs are not running: the mail waits in the outbox');
  }
}

/**
 * The queue's definition: claims the row, sends it with the configured mailer, marks it sent; a failure
 * (no mail server set up, the server refusing) releases the claim, records the error and fails the job,
 * which pg-boss retries.
 */
export function outboxQueue({
  db,
  config,
  retryDelaySeconds = 5,
}: {
  db: Db;
  config: Config;
  retryDelaySeconds?: number;
}): QueueDefinition<{ id: string }> {
  return {
    name: OUTBOX_QUEUE,
    options: { retryLimit: 5, retryDelay: retryDelaySeconds, retryBackoff: true },
    orphaned: 'retry',
    async handler({ data }) {
      const { rows } = await db.query<{ payload: MailMessage | string }>(
        `UPDATE engine_outbox SET claimed_at = now(), attempted_at = now(), attempts = attempts + 1
          WHERE id = $1 AND sent_at IS NULL
            AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2))
          RETURNING payload`,
        [data.id, CLAIM_SECONDS],
      );
      if (!rows.length) return { sent: false };
      const raw = rows[0]!.payload;
      const message = (typeof raw === 'string' ? JSON.parse(raw) : raw) as MailMessage;
      try {
        const mailer = await resolveMailer({ db, config });
        if (!mailer) throw new Error('mail is not set up');
        await mailer.send(message);
      } catch (error) {
        const reason = error instanceof Error ? error.message.slice(0, 200) : 'send failed';
        await db.query(`UPDATE engine_outbox SET claimed_at = NULL, last_error = $2 WHERE id = $1`, [
          data.id,
          reason,
        ]);
        throw new Error(`outbox mail ${data.id} not sent`);
      }
      await db.query(`UPDATE engine_outbox SET sent_at = now(), last_error = NULL WHERE id = $1`, [data.id]);
      return { sent: true };
    },
  };
}

/**
 * The sweep: queues every unsent row older than a minute that is not being sent and is due, once per sweep
 * (a singleton per row and minute; the claim makes the send itself happen once). A row that was tried is due
 * again `attempts` minutes after its last attempt (at most an hour), so pg-boss's own retries, whose gaps are
 * shorter, run first and a mail the server keeps refusing is not tried every minute. Runs when the runtime
 * starts (`started`) and every minute on its schedule. Example:
 * `await jobs.work(outboxSweepQueue({ db, jobs: () => app.jobs, log }))`.
 */
export function outboxSweepQueue({
  db,
  jobs,
  log,
}: {
  db: Db;
  jobs: () => JobsRuntime | null;
  log: HookLogger;
}): QueueDefinition<{ onStart?: boolean }> {
  return {
    name: OUTBOX_SWEEP_QUEUE,
    options: { retryLimit: 0 },
    orphaned: 'fail',
    async handler({ data }) {
      return { queued: await sweepOutbox({ db, jobs: jobs(), onStart: data.onStart === true }) };
    },
    async started() {
      const runtime = jobs();
      const boss = runtime?.boss;
      if (!runtime || !boss) return;
      try {
        await boss.schedule(OUTBOX_SWEEP_QUEUE, '* * * * *', {}, { retryLimit: 0 });
        await runtime.send(OUTBOX_SWEEP_QUEUE, { onStart: true });
      } catch (error) {
        // The minute's schedule (or the next start) sweeps instead; a start never fails for this.
        log.warn(
          { err: error instanceof Error ? error.message : 'error' },
          'outbox sweep not queued on start',
        );
      }
    },
  };
}

/**
 * Queues the due unsent rows; answers how many. The sweep a start queues (`onStart`) also takes the rows
 * never tried, however young: a server that stopped before its runtime started never queued them. Some may
 * have a job already (written a moment ago on a running server); the claim still sends each once.
 */
export async function sweepOutbox({
  db,
  jobs,
  onStart = false,
}: {
  db: Db;
  jobs: JobsRuntime | null;
  onStart?: boolean;
}): Promise<number> {
  if (!jobs?.isRunning) return 0;
  const { rows } = await db.query<{ id: string | number }>(
    `SELECT id FROM engine_outbox
      WHERE sent_at IS NULL
        AND (created_at < now() - make_interval(secs => $1) OR ($4 AND attempts = 0))
        AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $2))
        AND (attempted_at IS NULL OR attempted_at < now() - make_interval(mins => LEAST(attempts, 60)))
      ORDER BY id LIMIT $3`,
    [SWEEP_AFTER_SECONDS, CLAIM_SECONDS, SWEEP_BATCH, onStart],
  );
  let queued = 0;
  for (const row of rows) {
    const id = String(row.id);
    const job = await jobs.send(OUTBOX_QUEUE, { id }, { singletonKey: `outbox-${id}`, singletonSeconds: 60 });
    if (job) queued += 1;
  }
  return queued;
}
