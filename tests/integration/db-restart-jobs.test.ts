import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  onPostgres,
  serverOnStoppableDatabase,
  STOPPABLE_DATABASE_REASON,
} from '../helpers/stoppableDatabase.ts';

/**
 * A server must never exit because its database went away (issue 28, item 1): a real server process runs a
 * CSV export job over many rows when its PostgreSQL cluster is stopped. pg-boss marks the job failed without
 * awaiting the call, which used to be an unhandled rejection that ended the process; now the server lives,
 * answers 503 while the database is down and 200 once it is back.
 */
describe.skipIf(!onPostgres)(
  `a job in flight when the database stops (${onPostgres ? 'PostgreSQL' : STOPPABLE_DATABASE_REASON})`,
  () => {
    const db = serverOnStoppableDatabase({ CSV_JOB_ROWS: '1', JOBS_POLL_SECONDS: '0.5' });
    const call = db.call;

    it('survives, answers 503 with Retry-After, then 200 once PostgreSQL is back', async () => {
      const token = await db.signIn();
      // Enough rows that the export job runs for a while.
      const client = new pg.Client({ connectionString: db.cluster.url });
      await client.connect();
      await client.query(
        `INSERT INTO departments (name) SELECT 'Department ' || g FROM generate_series(1, 400000) g`,
      );
      const queued = await call('GET', 'v1/user/departments/export', token);
      expect(queued.status).toBe(202);
      // The database stops while the job's COPY runs: its statement is seen in pg_stat_activity (a job merely
      // marked active may still be planning, or, picked up at once, already done with 200k rows).
      await expect
        .poll(
          async () =>
            (
              await client.query(
                `SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'COPY%' AND pid <> pg_backend_pid()`,
              )
            ).rowCount,
          { timeout: 30_000, interval: 5 },
        )
        .toBe(1);
      await client.end();

      db.cluster.stop();
      const down = await call('GET', 'v1/user/departments', token);
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      await expect.poll(async () => (await fetch(`${db.server.baseURL}/api/health/ready`)).status).toBe(503);
      // The job's end (pg-boss's unawaited fail call) has met the stopped database, and the server lives on.
      await expect
        .poll(() => db.server.output(), { timeout: 30_000 })
        .toContain('a job ended while the database was unreachable');
      expect((await fetch(`${db.server.baseURL}/api/health`)).status).toBe(200);
      db.cluster.start();
      await expect
        .poll(async () => (await call('GET', 'v1/user/departments?page=1&pageSize=1', token)).status, {
          timeout: 30_000,
        })
        .toBe(200);
      expect((await fetch(`${db.server.baseURL}/api/health/ready`)).status).toBe(200);
    }, 180_000);
  },
);
