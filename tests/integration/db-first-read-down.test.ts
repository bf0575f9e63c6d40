import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from '../../scripts/lib/pg-cluster.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

/**
 * A value a server reads once and keeps (crash audit, /work/tools/s44/review-F.md) must not keep a failure: a
 * real server process whose first list sorted by a text column comes while PostgreSQL is stopped answers
 * 503 with Retry-After then, and 200 once the database is back. The text collation's lookup used to be kept
 * as the rejected promise, so every such list answered 503 until the server was restarted.
 */
const isPg = Boolean(process.env.DATABASE_URL);
const reason =
  'needs a real PostgreSQL cluster to stop and start (runs under npm run test:pg); PGlite runs inside ' +
  'the server process and cannot become unreachable';
const PASSWORD = 'first read down password';

describe.skipIf(!isPg)(`a first read while the database is down (${isPg ? 'PostgreSQL' : reason})`, () => {
  let cluster: PgCluster;
  let server: ServerProcess;
  beforeAll(async () => {
    cluster = await startPgCluster({ log: () => {} });
    server = await startServerProcess({
      DATABASE_URL: cluster.url,
      ADMIN_USERNAME: 'admin',
      ADMIN_PASSWORD: PASSWORD,
      JOBS: '0',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    cluster?.destroy();
  });

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.baseURL}/api/${path}`, {
      ...init,
      headers: { 'accept-language': 'en', 'content-type': 'application/json', ...init.headers },
    });

  it('answers 503 with Retry-After while PostgreSQL is down, then 200 for the same list', async () => {
    const login = await call('v1/user/login', {
      method: 'POST',
      body: JSON.stringify({ username: 'admin', password: PASSWORD, remember: false }),
    });
    expect(login.status).toBe(200);
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    // The first list on this server reads which text collations the database has (for sorting text).
    const list = () =>
      call('v1/user/departments', {
        headers: { authorization: `Bearer ${token}` },
      });

    // Authorized once, by a write (not a list), so the list below gets past its caller's checks.
    const created = await call('v1/user/departments', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify({ name: 'Read while down' }),
    });
    expect(created.status).toBe(201);
    cluster.stop();
    const down = await list();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.json()).toEqual({
      code: 503,
      message: 'The database cannot be reached right now; please try again shortly',
      data: null,
    });

    cluster.start();
    // pg_ctl -w returned once the server accepts connections: the pool's next connection works.
    await expect.poll(async () => (await list()).status, { timeout: 15_000 }).toBe(200);
    expect(await (await list()).text()).toContain('Read while down');
    expect((await fetch(`${server.baseURL}/api/health/ready`)).status).toBe(200);
  }, 60_000);
});
