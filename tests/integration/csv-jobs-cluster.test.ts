import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvFileKey } from '../../server/engine/csv/files.ts';
import { localStorage, postgresStorage, type FileStorage } from '../../server/storage/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

const BASE = '/api/v1/user/departments';
const ROWS = 12;

/**
 * CSV job files across servers (issue 28: 762 of 762 downloads through the other server were 404): two real
 * server processes (`server/main.ts`) on one PostgreSQL, each with its own DATA_DIR, sharing the file
 * storage (STORAGE=postgres, then one STORAGE_DIR for STORAGE=local), CSV_JOB_ROWS=5 so a dozen rows make a
 * job. An export job's file downloads byte-identical through both servers (one of them did not run it); an
 * import uploaded to one server is run by the other after the first has stopped and its DATA_DIR is gone.
 * PostgreSQL only: PGlite is one process's embedded database, so there is no second server on it
 * (engine-csv-jobs.test.ts checks the files' keys in the storage on both databases).
 *
 * The import is held back without a clock: a trigger the test puts on pg-boss's job table gives new
 * `csv-import` jobs a start an hour away (pg-boss's own `start_after`), so neither server takes it; once the
 * server that received it has stopped, the test drops the trigger and moves the start to now.
 */
describe.skipIf(!process.env.DATABASE_URL)('CSV job files across two servers (PostgreSQL)', () => {
  describe.each(['postgres', 'local'] as const)('STORAGE=%s', (driver) => {
    let t: TestApp;
    let shared: FileStorage;
    let storageDir: string;
    let token: string;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      // This app only reads and writes the database (no jobs); the two child processes do the work.
      t = await createTestApp({ jobs: false });
      token = await t.adminToken();
      storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csv-cluster-'));
      shared = driver === 'postgres' ? postgresStorage(t.db) : localStorage(storageDir);
      await t.db.query(
        `INSERT INTO departments (name, parent_id, sort) SELECT 'Cluster ' || g, 0, g FROM generate_series(1, $1::int) g`,
        [ROWS],
      );
      const env = {
        DATABASE_URL: t.dbUrl!,
        ADMIN_PASSWORD: 'csv-cluster-admin-password-1',
        STORAGE: driver,
        STORAGE_DIR: storageDir,
        CSV_JOB_ROWS: '5',
        JOBS_POLL_SECONDS: '0.5',
      };
      servers.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
    }, 180_000);
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await t?.db.query('DROP TRIGGER IF EXISTS hold_csv_imports ON pgboss.job').catch(() => undefined);
      await t?.close();
      fs.rmSync(storageDir, { recursive: true, force: true });
    }, 60_000);

    const call = (server: ServerProcess, url: string, init: RequestInit = {}) =>
      fetch(`${server.baseURL}${url}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, 'accept-language': 'en', ...init.headers },
      });
    /**
     * Repeats `request` until it answers 202 with a job (a server serves before its pg-boss is up, and does
     * CSV work in the request until then); the job's id.
     */
    const queued = async (request: () => Promise<Response>) => {
      let id = '';
      await expect
        .poll(
          async () => {
            const res = await request();
            if (res.status === 202) id = ((await res.json()) as { data: { job_id: string } }).data.job_id;
            else await res.arrayBuffer();
            return res.status;
          },
          { timeout: 90_000, interval: 250 },
        )
        .toBe(202);
      return id;
    };
    const settled = async (server: ServerProcess, url: string) => {
      let job: { state: string; error: string | null; output: Record<string, unknown> | null } | null = null;
      await expect
        .poll(
          async () => {
            const res = await call(server, url);
            job = ((await res.json()) as { data: NonNullable<typeof job> }).data;
            return job.state;
          },
          { timeout: 60_000, interval: 250 },
        )
        .toMatch(/^(completed|failed)$/);
      return job!;
    };

    it('an export job’s file downloads through either server, byte for byte', async () => {
      const query = 'search=name:Cluster&searchFields=name:like&orderBy=sort&sortedBy=asc';
      const id = await queued(() => call(servers[0]!, `${BASE}/export?${query}`));
      const job = await settled(servers[1]!, `${BASE}/export/${id}`);
      expect(job, job.error ?? '').toMatchObject({ state: 'completed', output: { rows: ROWS } });
      // In the shared storage under the jobs' prefix, whichever server ran it.
      // Compressed once when written (issue 37); the download inflates it for a client without gzip.
      const stored = await shared.stat(`${csvFileKey('exports', id)}.gz`);
      expect(stored).not.toBeNull();
      const size = (job.output as { size: number }).size;

      const downloads = [];
      for (const server of servers) {
        // Uncompressed, to compare the length with the CSV's (fetch asks for gzip and br otherwise).
        const res = await call(server, `${BASE}/export/${id}/download`, {
          headers: { 'accept-encoding': 'identity' },
        });
        downloads.push({
          status: res.status,
          type: res.headers.get('content-type'),
          disposition: res.headers.get('content-disposition'),
          length: res.headers.get('content-length'),
          body: Buffer.from(await res.arrayBuffer()),
        });
      }
      for (const d of downloads) {
        expect(d).toMatchObject({
          status: 200,
          type: 'text/csv; charset=utf-8',
          length: String(size),
        });
        expect(d.disposition).toMatch(/^attachment; filename="departments-\d{8}-\d{6}\.csv"/);
      }
      expect(downloads[1]!.body.equals(downloads[0]!.body)).toBe(true);
      const lines = downloads[0]!.body.toString('utf8').slice(1).trim().split('\n');
      expect(lines).toHaveLength(1 + ROWS);
      expect(lines.at(-1)).toContain(`Cluster ${ROWS}`);
    }, 180_000);

    it('an import uploaded to one server is run by the other after the first has stopped', async () => {
      await t.db.exec(`
        CREATE OR REPLACE FUNCTION hold_csv_imports() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.start_after := now() + interval '1 hour'; RETURN NEW; END $$;
        CREATE TRIGGER hold_csv_imports BEFORE INSERT ON pgboss.job
          FOR EACH ROW WHEN (NEW.name = 'csv-import') EXECUTE FUNCTION hold_csv_imports();
      `);
      const [receiver, runner] = [servers[1]!, servers[0]!];
      const boundary = '----csv-cluster';
      const csv = ['name,sort', ...Array.from({ length: 7 }, (_, i) => `Imported ${i},${100 + i}`)].join(
        '\n',
      );
      // Until its pg-boss is up, a server imports in the request: a retried upload would be imported twice.
      // So the receiver first shows it queues work (an export), and the upload is sent once.
      await queued(() => call(receiver, `${BASE}/export?orderBy=sort&sortedBy=asc`));
      const upload = await call(receiver, `${BASE}/import`, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body:
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n` +
          `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      });
      const answer = await upload.text();
      expect(upload.status, answer).toBe(202);
      const id = (JSON.parse(answer) as { data: { job_id: string } }).data.job_id;
      const { rows } = await t.db.query<{ file: string; state: string }>(
        `SELECT data->>'file' AS file, state::text AS state FROM pgboss.job WHERE id = $1::uuid`,
        [id],
      );
      expect(rows[0]!.state).toBe('created');
      const key = csvFileKey('imports', rows[0]!.file);
      expect(await shared.stat(key)).not.toBeNull();

      // The server that received the upload goes away, its DATA_DIR with it; the other runs the job.
      await receiver.stop();
      servers.splice(servers.indexOf(receiver), 1);
      await t.db.exec('DROP TRIGGER hold_csv_imports ON pgboss.job');
      await t.db.query('UPDATE pgboss.job SET start_after = now() WHERE id = $1::uuid', [id]);
      const job = await settled(runner, `${BASE}/import/${id}`);
      expect(job, job.error ?? '').toMatchObject({ state: 'completed', output: { total: 7, created: 7 } });
      const imported = await t.db.query(`SELECT 1 FROM departments WHERE name LIKE 'Imported %'`);
      expect(imported.rows).toHaveLength(7);
      // A completed import's upload is removed from the storage.
      expect(await shared.stat(key)).toBeNull();
    }, 180_000);
  });
});
