import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskHandlers } from '../../server/modules/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/** The built-in "purge expired tokens and codes" task also purges expired WeChat sign-in states and tickets. */
describe('auth.purge task', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('deletes WeChat states and tickets expired over a day ago, keeps live ones', async () => {
    await t.db.query(
      `INSERT INTO wechat_states (state_hash, browser_hash, expires_at) VALUES
         ('old', 'b', now() - interval '2 days'), ('live', 'b', now() + interval '5 minutes')`,
    );
    await t.db.query(
      `INSERT INTO wechat_tickets (ticket_hash, provider, app_id, openid, expires_at) VALUES
         ('old-ticket', 'official', 'app', 'o1', now() - interval '2 days')`,
    );
    const handler = taskHandlers.find((h) => h.name === 'auth.purge')!;
    const result = await handler.run(
      { db: t.db, config: t.config, log: pino({ level: 'silent' }), storage: t.storage },
      {},
    );
    expect(result).toMatchObject({ wechat: 2, tokens: expect.any(Number) });
    const { rows } = await t.db.query<{ state_hash: string }>('SELECT state_hash FROM wechat_states');
    expect(rows.map((r) => r.state_hash)).toEqual(['live']);
    expect((await t.db.query('SELECT 1 FROM wechat_tickets')).rows).toEqual([]);
  });
});
