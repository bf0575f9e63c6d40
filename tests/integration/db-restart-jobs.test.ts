import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from '../../scripts/lib/pg-cluster.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

/**
 * A server must never exit because its database went away (issue 28, item 1): a real server process runs a
 * CSV export job over many rows when its PostgreSQL cluster is stopped. pg-boss marks the job failed without
 * awaiting the call, which used to be an unhandled rejection that ended the process; now the server lives,
 * answers 503 while the database is down and 200 once it is back.
 */
const isPg = Boolean(process.env.DATABASE_URL);
const reason =
  'needs a real PostgreSQL cluster to stop and start (runs under npm run test:pg); PGlite runs inside ' +
  'the server process and cannot become unreachable';
const PASSWORD = 'restart jobs password';

describe.skipIf(!isPg)(`a job in flight when the database stops (${isPg ? 'PostgreSQL' : reason})`, () => {
  let cluster: PgCluster;
  let server: ServerProcess;
  beforeAll(async () => {
    cluster = await startPgCluster({ log: () => {} });
    server = await startServerProcess({
      DATABASE_URL: cluster.url,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: PASSWORD,
      CSV_JOB_ROWS: '1',
      JOBS_POLL_SECONDS: '0.5',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
  });

  const call = (method: string, path: string, token?: string, payload?: unknown) =>
    fetch(`${server.baseURL}/api/${path}`, {
      method,
      headers: {
        'accept-language': 'en',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });

  it('survives, answers 503 with Retry-After, then 200 once PostgreSQL is back', async () => {
    const login = await call('POST', 'v1/user/login', undefined, {
      username: 'admin',
      password: PASSWORD,
      remember: false,
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    // Enough rows that the export job runs for a while.
    const client = new pg.Client({ connectionString: cluster.url });
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

    cluster.stop();
    const down = await call('GET', 'v1/user/departments', token);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    await expect.poll(async () => (await fetch(`${server.baseURL}/api/health/ready`)).status).toBe(503);
    // The job's end (pg-boss's unawaited fail call) has met the stopped database, and the server lives on.
    await expect
      .poll(() => server.output(), { timeout: 30_000 })
      .toContain('a job ended while the database was unreachable');
    expect((await fetch(`${server.baseURL}/api/health`)).status).toBe(200);
    cluster.start();
    await expect
      .poll(async () => (await call('GET', 'v1/user/departments?page=1&pageSize=1', token)).status, {
        timeout: 30_000,
      })
      .toBe(200);
    expect((await fetch(`${server.baseURL}/api/health/ready`)).status).toBe(200);
  }, 180_000);
});
