import type { Config } from '../config.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { JobsRuntime, QueueDefinition } from '../jobs/runtime.ts';
import { resolveMailer, type MailMessage } from '../mail/mailer.ts';
import type { HookLogger } from './hooks.ts';

/**
 * The outbox of mail sent from resource hooks (hooks.ts `services.mail`, migration 0142): a row written in
 * the write's transaction, a pg-boss job queued after commit (one per row: its singleton key), sent by
 * whichever server works the queue. A send claims the row first, so two servers never send it twice; a
 * failed send releases it and the job is retried (`retryLimit`); a sent row is never sent again.
 */

/** The queue that sends outbox rows. */
export const OUTBOX_QUEUE = 'engine.outbox';

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

/** Queues the row's send (after commit). Without a running job runtime the row stays unsent (logged). */
export async function enqueueOutbox(jobs: JobsRuntime | null, id: string, log: HookLogger): Promise<void> {
  if (!jobs?.isRunning) {
    log.warn({ outbox_id: id }, 'jobs are not running: the mail waits in the outbox');
    return;
  }
  await jobs.send(OUTBOX_QUEUE, { id }, { singletonKey: `outbox-${id}` });
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
        `UPDATE engine_outbox SET claimed_at = now(), attempts = attempts + 1
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
