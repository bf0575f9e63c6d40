import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResourceHooksTable } from '../../server/engine/hooks.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

/**
 * The outbox sweep (issue 35, server/engine/outbox.ts): mail a hook wrote while pg-boss was not running (held
 * by this server, or left by one that stopped first), or whose retries were all spent, is queued again when
 * the job runtime starts, and sent once.
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let smtp: TestSmtp;
let admin: string;
let sku = 0;
/** A queue a hook sends to with `services.jobs.send`. */
const HELD_QUEUE = 'test.gadget-held';

const hooks: ResourceHooksTable = {
  gadgets: {
    async beforeWrite(e) {
      const email = e.data.email as string | undefined;
      if (e.action === 'create' && email)
        await e.services.mail.send({ to: email, subject: `Swept ${String(e.data.name)}`, text: 'swept' });
      if (e.action === 'create' && e.data.name === 'Queued')
        await e.services.jobs.send(HELD_QUEUE, { name: e.data.name });
    },
  },
};

async function outboxFor(to: string) {
  const { rows } = await t.db.query<{ id: string; attempts: number; sent_at: Date | null }>(
    `SELECT id, attempts, sent_at FROM engine_outbox WHERE payload->>'to' = $1 ORDER BY id`,
    [to],
  );
  return rows;
}

async function createMailed(name: string, email: string) {
  sku += 1;
  const res = await t.request({
    method: 'POST',
    url: BASE,
    token: admin,
    payload: { sku: `SW-${sku}`, price: 1, name, email },
  });
  expect(res.statusCode, res.body).toBe(201);
}

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createGadgetApp({ hooks, config: { jobs: true, jobsPollSeconds: 0.5, smtpUrl: smtp.url } });
  admin = await t.adminToken();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('the outbox sweep', () => {
  it('sends, once the runtime starts, the mail written before it ran, at once and once each', async () => {
    await t.app.jobs.stop();
    expect(t.app.jobs.isRunning).toBe(false);
    // Written on this server while its runtime is down (as in the moment after a server listens): held.
    await createMailed('Held', 'held@example.com');
    // Written by a server that stopped before its runtime started: a row no job carries, a few seconds old.
    await t.db.query(
      `INSERT INTO engine_outbox (payload, created_at) VALUES ($1, now() - interval '5 seconds')`,
      [JSON.stringify({ to: 'orphan@example.com', subject: 'Swept orphan', text: 'swept' })],
    );
    // And one older than the sweep's minute.
    await createMailed('Waiting', 'waiting@example.com');
    await t.db.query(
      `UPDATE engine_outbox SET created_at = now() - interval '2 minutes' WHERE payload->>'to' = $1`,
      ['waiting@example.com'],
    );
    for (const to of ['held@example.com', 'orphan@example.com', 'waiting@example.com'])
      expect(await outboxFor(to)).toMatchObject([{ attempts: 0, sent_at: null }]);
    await t.app.jobs.start();
    // Far sooner than the minute's schedule: the held send and the start's sweep.
    expect((await smtp.nextMail('held@example.com', 20_000)).subject).toBe('Swept Held');
    expect((await smtp.nextMail('orphan@example.com', 20_000)).subject).toBe('Swept orphan');
    expect((await smtp.nextMail('waiting@example.com', 20_000)).subject).toBe('Swept Waiting');
    for (const to of ['held@example.com', 'orphan@example.com', 'waiting@example.com'])
      await expect
        .poll(() => outboxFor(to), { timeout: 20_000 })
        .toMatchObject([{ attempts: 1, sent_at: expect.any(Date) }]);
    // The held row had two jobs (its own and the sweep's): the claim sent it once. Give a second job time.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(smtp.mails.filter((m) => m.to.includes('held@example.com'))).toEqual([]);
  }, 60_000);

  it("sends a hook's job written while the runtime starts once it has, not never", async () => {
    const got: unknown[] = [];
    await t.app.jobs.stop();
    await createMailed('Queued', 'queued@example.com');
    await t.app.jobs.work({
      name: HELD_QUEUE,
      handler: async ({ data }) => {
        got.push(data);
        return null;
      },
    });
    expect(got).toEqual([]);
    await t.app.jobs.start();
    await expect.poll(() => got, { timeout: 20_000 }).toEqual([{ name: 'Queued' }]);
    await smtp.nextMail('queued@example.com', 20_000);
  }, 60_000);

  it('queues again, once due, a mail whose retries were all spent, and sends it once', async () => {
    // Three rows in id order: spent (due), recent (tried a moment ago: not due), control (due). The sweep
    // queues in id order and the queue works one job at a time, so control's mail comes after recent's would.
    for (const name of ['spent', 'recent', 'control']) {
      await createMailed(name, `${name}@example.com`);
      await smtp.nextMail(`${name}@example.com`, 30_000);
      // The send is marked after the mail server took it: wait for that before rewriting the row.
      await expect
        .poll(() => outboxFor(`${name}@example.com`), { timeout: 20_000 })
        .toMatchObject([{ sent_at: expect.any(Date) }]);
    }
    // As if every retry had failed: unsent, six attempts, the last one long ago or just now.
    await t.db.query(
      `UPDATE engine_outbox SET sent_at = NULL, claimed_at = NULL, attempts = 6, last_error = 'refused',
         created_at = now() - interval '1 hour',
         attempted_at = CASE WHEN payload->>'to' = 'recent@example.com' THEN now()
                             ELSE now() - interval '7 minutes' END
       WHERE payload->>'to' IN ('spent@example.com', 'recent@example.com', 'control@example.com')`,
    );
    // A restart sweeps (as the minute's schedule does).
    await t.app.jobs.stop();
    await t.app.jobs.start();
    expect((await smtp.nextMail('spent@example.com', 30_000)).subject).toBe('Swept spent');
    await smtp.nextMail('control@example.com', 30_000);
    await expect
      .poll(() => outboxFor('spent@example.com'), { timeout: 20_000 })
      .toMatchObject([{ attempts: 7, sent_at: expect.any(Date) }]);
    expect(await outboxFor('recent@example.com')).toMatchObject([{ attempts: 6, sent_at: null }]);
    expect(smtp.mails.filter((m) => m.to.some((to) => /(spent|recent)@example\.com/.test(to)))).toEqual([]);
  }, 120_000);
});
