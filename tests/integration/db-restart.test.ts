import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from '../../scripts/lib/pg-cluster.ts';
import { buildApp } from '../../server/app.ts';
import { issueToken } from '../../server/credentials/tokens.ts';
import { ensureFirstAdmin } from '../../server/bootstrap.ts';
import { loadConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/index.ts';
import { migrate } from '../../server/db/migrate.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { ADMIN } from '../helpers/app.ts';

/**
 * A database that cannot be reached is a 503 in the envelope with Retry-After, never a 500, and the server
 * recovers by itself when the database is back: a real PostgreSQL cluster of this file's own (so the other
 * test files keep theirs) is stopped and started under a running server.
 */
const isPg = Boolean(process.env.DATABASE_URL);
const reason =
  'needs a real PostgreSQL cluster to stop and start (runs under npm run test:pg); PGlite runs inside ' +
  'this process and cannot become unreachable';

describe.skipIf(!isPg)(`database restart under a running server (${isPg ? 'PostgreSQL' : reason})`, () => {
  let cluster: PgCluster;
  let db: Db;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let token: string;
  beforeAll(async () => {
    cluster = await startPgCluster({ log: () => {} });
    db = await openPostgres(cluster.url, { max: 3 });
    await migrate(db);
    await ensureFirstAdmin(db, ADMIN);
    const config = {
      ...loadConfig({ DATA_DIR: `/tmp/admin-test-restart-${process.pid}` }),
      logToFile: false,
      distDir: '/nonexistent-dist',
      databaseUrl: cluster.url,
      jobs: false,
    };
    app = await buildApp({ db, config, logger: pino({ level: 'silent' }) });
    await app.ready();
    const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [
      ADMIN.username,
    ]);
    token = (await issueToken(db, { userId: rows[0]!.id, remember: false })).accessToken;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.close().catch(() => {});
    cluster?.destroy();
  });

  const list = () =>
    app.inject({
      url: '/api/v1/user/departments',
      headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
    });

  it('answers 503 with Retry-After while PostgreSQL is down, and 200 again once it is back', async () => {
    expect((await list()).statusCode).toBe(200);
    cluster.stop();
    for (let i = 0; i < 3; i++) {
      const res = await list();
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        code: 503,
        message: 'The database cannot be reached right now; please try again shortly',
        data: null,
      });
    }
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
    });
    expect(signIn.statusCode).toBe(503);
    cluster.start();
    // pg_ctl -w returned once the server accepts connections: the pool's next connection works.
    const back = await list();
    expect(back.statusCode).toBe(200);
    expect(back.json().data.data.length).toBeGreaterThanOrEqual(0);
  }, 120_000);
});
