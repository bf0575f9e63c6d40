import { describe, expect, it } from 'vitest';
import {
  onPostgres,
  serverOnStoppableDatabase,
  STOPPABLE_DATABASE_REASON,
} from '../helpers/stoppableDatabase.ts';

/**
 * A value a server reads once and keeps (a crash audit) must not keep a failure: a
 * real server process whose first list sorted by a text column comes while PostgreSQL is stopped answers
 * 503 with Retry-After then, and 200 once the database is back. The text collation's lookup used to be kept
 * as the rejected promise, so every such list answered 503 until the server was restarted.
 */
describe.skipIf(!onPostgres)(
  `a first read while the database is down (${onPostgres ? 'PostgreSQL' : STOPPABLE_DATABASE_REASON})`,
  () => {
    const db = serverOnStoppableDatabase({ JOBS: '0' });

    it('answers 503 with Retry-After while PostgreSQL is down, then 200 for the same list', async () => {
      const token = await db.signIn();
      // The first list on this server reads which text collations the database has (for sorting text).
      const list = () => db.call('GET', 'v1/user/departments', token);

      // Authorized once, by a write (not a list), so the list below gets past its caller's checks.
      const created = await db.call('POST', 'v1/user/departments', token, { name: 'Read while down' });
      expect(created.status).toBe(201);
      db.cluster.stop();
      const down = await list();
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      expect(await down.json()).toEqual({
        code: 503,
        message: 'The database cannot be reached right now; please try again shortly',
        data: null,
      });

      db.cluster.start();
      // pg_ctl -w returned once the server accepts connections: the pool's next connection works.
      await expect.poll(async () => (await list()).status, { timeout: 15_000 }).toBe(200);
      expect(await (await list()).text()).toContain('Read while down');
      expect((await fetch(`${db.server.baseURL}/api/health/ready`)).status).toBe(200);
    }, 60_000);
  },
);
