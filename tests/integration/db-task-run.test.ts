import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { translate } from '../../locales/index.ts';
import {
  onPostgres,
  serverOnStoppableDatabase,
  STOPPABLE_DATABASE_REASON,
} from '../helpers/stoppableDatabase.ts';

/**
 * A scheduled task whose database stops under it ends failed, with a localized message, once the database is
 * back (a crash audit): a real server process (JOBS=0, so the run happens in the
 * request) runs the backup task while the test holds a lock that pg_dump waits for; the cluster is stopped
 * under it. The server lives and answers 503 with Retry-After meanwhile; the run used to stay `running` for
 * good (its close met the stopped database and nothing tried again) with pg_dump's raw stderr as its error.
 */
describe.skipIf(!onPostgres)(
  `a task run when the database stops (${onPostgres ? 'PostgreSQL' : STOPPABLE_DATABASE_REASON})`,
  () => {
    const db = serverOnStoppableDatabase({ JOBS: '0' });
    const call = db.call;
    const json = async <T>(res: Response | Promise<Response>) =>
      ((await (await res).json()) as { data: T }).data;

    it('lives, answers 503 while PostgreSQL is down, then closes the run as failed in plain words', async () => {
      const token = await db.signIn();
      const tasks = await json<{ data: { id: string; handler: string }[] }>(
        call('GET', 'v1/system/tasks?page=1&pageSize=50', token),
      );
      const backup = tasks.data.find((task) => task.handler === 'database.backup')!;

      // pg_dump locks every table it dumps: a table of the test's, locked by it, holds the dump mid-run.
      const holder = new pg.Client({ connectionString: db.cluster.url });
      holder.on('error', () => {}); // its connection is cut when the cluster stops
      await holder.connect();
      await holder.query('CREATE TABLE crash_probe (id int)');
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE crash_probe IN ACCESS EXCLUSIVE MODE');
      const run = call('POST', `v1/system/tasks/${backup.id}/run`, token);
      const watcher = new pg.Client({ connectionString: db.cluster.url });
      await watcher.connect();
      await expect
        .poll(
          async () =>
            (
              await watcher.query(
                `SELECT 1 FROM pg_stat_activity WHERE application_name = 'pg_dump' AND wait_event_type = 'Lock'`,
              )
            ).rowCount,
          { timeout: 30_000, interval: 50 },
        )
        .toBe(1);
      await watcher.end();

      db.cluster.stop();
      // The run's request ends (its run could not be closed yet), below 500.
      expect((await run).status).toBeLessThan(500);
      const down = await call('GET', 'v1/user/departments', token);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      expect((await fetch(`${db.server.baseURL}/api/health`)).status).toBeLessThan(500);

      db.cluster.start();
      await expect
        .poll(async () => (await call('GET', 'v1/user/departments?page=1&pageSize=1', token)).status, {
          timeout: 30_000,
        })
        .toBe(200);
      // The run is closed as failed once the database is back: not left running, and no pg_dump output.
      const runs = () =>
        json<{ data: { status: string; error: string | null; trigger: string }[] }>(
          call('GET', `v1/system/tasks/${backup.id}/runs`, token),
        );
      await expect.poll(async () => (await runs()).data[0]?.status, { timeout: 30_000 }).toBe('failed');
      const failed = (await runs()).data[0]!;
      expect([
        translate('en', 'errors.db_unavailable'),
        translate('zh-CN', 'errors.db_unavailable'),
      ]).toContain(failed.error);
      expect(db.server.output()).not.toMatch(/\n\s+at /); // no stack trace in any log line
    }, 120_000);
  },
);
