import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../server/core/errors.ts';
import type { CommittedEvent, ResourceHooksTable } from '../../server/engine/hooks.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

/**
 * Hooks with context and the after-commit stage (issue 35 item 9): a hook gets the principal, the database
 * and the services; mail it sends is an outbox row sent by a pg-boss job after commit (never on rollback,
 * once, retried); `afterCommit` runs only after the commit, and its failure is no error for the caller.
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let smtp: TestSmtp;
let admin: string;
let sku = 0;
let refusals = 0;
const committed: CommittedEvent[] = [];

const hooks: ResourceHooksTable = {
  gadgets: {
    async beforeWrite(e) {
      if (e.action !== 'create') return;
      const email = e.data.email as string | undefined;
      if (email) {
        const site = await e.services.settings.get('site');
        await e.services.mail.send({
          to: email,
          subject: `New gadget ${String(e.data.name)}`,
          text: `${String(e.data.name)} was added to ${site.site_name} by ${e.principal?.userId ?? '-'}`,
        });
      }
      // Refused after the mail was written: the transaction rolls back and takes the outbox row with it.
      if (String(e.data.name).startsWith('Refused'))
        throw AppError.validation({ name: ['validation.invalid'] });
    },
    async afterCommit(e) {
      committed.push(e);
      if (e.data.name === 'Boom') throw new Error('the after-commit hook failed');
    },
  },
};

const create = (data: Record<string, unknown>) => {
  sku += 1;
  return t.request({
    method: 'POST',
    url: BASE,
    token: admin,
    payload: { sku: `AC-${sku}`, price: 1, ...data },
  });
};

async function outboxFor(to: string) {
  const { rows } = await t.db.query<{ attempts: number; sent_at: Date | null }>(
    `SELECT attempts, sent_at FROM engine_outbox WHERE payload->>'to' = $1 ORDER BY id`,
    [to],
  );
  return rows;
}

beforeAll(async () => {
  // The first delivery to retry@ is refused (451), the next accepted.
  smtp = await startSmtp({
    refuse: (to) => to.includes('retry@example.com') && refusals === 0 && (refusals += 1) > 0,
  });
  t = await createGadgetApp({ hooks, config: { jobs: true, jobsPollSeconds: 0.5, smtpUrl: smtp.url } });
  admin = await t.adminToken();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('mail from a hook', () => {
  it('is sent once, after the commit', async () => {
    const res = await create({ name: 'Mailed', email: 'once@example.com' });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await smtp.nextMail('once@example.com', 20_000);
    expect(mail.subject).toBe('New gadget Mailed');
    await expect
      .poll(() => outboxFor('once@example.com'), { timeout: 20_000 })
      .toMatchObject([{ attempts: 1, sent_at: expect.any(Date) }]);
  });

  it('is never sent when the write rolls back', async () => {
    const res = await create({ name: 'Refused one', email: 'never@example.com' });
    expect(res.statusCode).toBe(422);
    expect(await outboxFor('never@example.com')).toEqual([]);
    // A later mail of the same queue arrives; the refused one never did.
    expect((await create({ name: 'Control', email: 'control@example.com' })).statusCode).toBe(201);
    await smtp.nextMail('control@example.com', 20_000);
    expect(smtp.mails.some((m) => m.to.includes('never@example.com'))).toBe(false);
    expect(committed.some((e) => e.data.name === 'Refused one')).toBe(false);
  });

  it('is retried when the mail server refuses it, and then sent once', async () => {
    const res = await create({ name: 'Retried', email: 'retry@example.com' });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await smtp.nextMail('retry@example.com', 40_000);
    expect(mail.subject).toBe('New gadget Retried');
    expect(refusals).toBe(1);
    await expect
      .poll(() => outboxFor('retry@example.com'), { timeout: 20_000 })
      .toMatchObject([{ attempts: 2, sent_at: expect.any(Date) }]);
  });
});

describe('afterCommit', () => {
  it('runs after the commit with the committed record, the principal and the database', async () => {
    const res = await create({ name: 'Seen' });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    const event = committed.find((e) => e.id === id);
    expect(event).toMatchObject({ action: 'create', id, data: { name: 'Seen' } });
    expect(event!.principal?.userId).toBeTruthy();
    // The transaction is over: the database handle sees the committed row.
    const { rows } = await event!.db.query('SELECT name FROM gadgets WHERE id = $1', [id]);
    expect(rows).toEqual([{ name: 'Seen' }]);
  });

  it('a failing afterCommit is logged, and the caller still gets the write', async () => {
    const res = await create({ name: 'Boom' });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    expect((await t.request({ url: `${BASE}/${id}`, token: admin })).statusCode).toBe(200);
    const upd = await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token: admin,
      payload: { price: 2 },
    });
    expect(upd.statusCode).toBe(200);
    expect(committed.filter((e) => e.id === id).map((e) => e.action)).toEqual(['create', 'update']);
  });

  it('runs for row actions and bulk calls too', async () => {
    const a = (await create({ name: 'Act A' })).json().data.id as string;
    const b = (await create({ name: 'Act B' })).json().data.id as string;
    const res = await t.request({
      method: 'POST',
      url: `${BASE}/actions/retire?ids=${a},${b}`,
      token: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(committed.filter((e) => (e.id === a || e.id === b) && e.action === 'update')).toHaveLength(2);
  });
});
