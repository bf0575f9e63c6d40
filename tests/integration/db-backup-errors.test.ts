import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { translate } from '../../locales/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * A backup run whose pg_dump fails keeps a localized message and a reason class as its error, never
 * pg_dump's stderr (it names the host, port, user and database), and no log line carries that stderr either
 * (review of issue 37). The server runs on its own test database; only the backup's DATABASE_URL points at a
 * bad target: a database or a user that does not exist, a port nobody listens on. PostgreSQL only (`npm run
 * test:pg`): on PGlite a backup is the database's own dump, without pg_dump.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);

describe.skipIf(!onPostgres)('a backup run whose pg_dump fails', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  /** A test app whose backups dump `target(the cluster's URL)`, with every log line captured. */
  async function appBackingUp(target: (own: URL) => URL) {
    const lines: string[] = [];
    const capture = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    // The cluster's own database: the test app's database is another one on it.
    const own = new URL(process.env.DATABASE_URL!);
    const bad = target(own);
    const t = await createTestApp(
      { databaseUrl: bad.toString() },
      { logger: pino({ level: 'trace' }, capture) },
    );
    apps.push(t);
    return { t, lines, bad };
  }

  async function failedBackup(t: TestApp) {
    const token = await t.adminToken();
    const api = (method: 'GET' | 'POST', url: string) =>
      t.request({ method, url: `/api/v1/system/tasks${url}`, token, headers: { 'accept-language': 'en' } });
    const tasks = (await api('GET', '?page=1&pageSize=50')).json().data.data as {
      id: string;
      handler: string;
    }[];
    const backup = tasks.find((task) => task.handler === 'database.backup')!;
    // JOBS off: the run happens in the request, which answers once it is over.
    const started = await api('POST', `/${backup.id}/run`);
    expect(started.statusCode, started.body).toBe(202);
    const runs = await api('GET', `/${backup.id}/runs`);
    expect(runs.statusCode, runs.body).toBe(200);
    const [run] = runs.json().data.data as { status: string; error: string | null; result: unknown }[];
    return { run: run!, body: runs.body };
  }

  const cases: { name: string; target: (own: URL) => URL; reason: string; key: string }[] = [
    {
      name: 'a database that does not exist',
      target: (own) => Object.assign(new URL(own), { pathname: '/no_such_backup_db_q7' }),
      reason: 'target',
      key: 'system.backup_errors.target',
    },
    {
      name: 'a user that does not exist',
      target: (own) => Object.assign(new URL(own), { username: 'no_such_backup_user_q7' }),
      reason: 'target',
      key: 'system.backup_errors.target',
    },
    {
      name: 'a port nobody listens on',
      target: (own) => Object.assign(new URL(own), { port: '1' }),
      reason: 'unavailable',
      key: 'errors.db_unavailable',
    },
  ];

  for (const { name, target, reason, key } of cases)
    it(`stores a localized message and the reason class for ${name}, nothing of pg_dump's text`, async () => {
      const { t, lines, bad } = await appBackingUp(target);
      const { run, body } = await failedBackup(t);
      expect(run.status).toBe('failed');
      expect([translate('en', key), translate('zh-CN', key)]).toContain(run.error);
      expect(run.result).toEqual({ reason });
      const database = bad.pathname.slice(1);
      for (const text of [body, ...lines]) {
        expect(text).not.toContain(database);
        expect(text).not.toContain(bad.username);
        expect(text).not.toMatch(/pg_dump: error|connection to server|port \d+/);
      }
      // The log says that the task failed and why, in the server's own words.
      const failed = lines.map((l) => JSON.parse(l) as { msg: string; err?: { message: string } });
      expect(failed.find((l) => l.msg === 'scheduled task failed')?.err?.message).toMatch(
        new RegExp(`^pg_dump failed: ${reason} \\(exit code \\d+\\)$`),
      );
    });
});
