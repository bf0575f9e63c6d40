import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogs } from '../../locales/index.ts';
import { csvFileKey, removeOldCsvFiles } from '../../server/engine/csv/files.ts';
import { hubFor, type StampedEvent } from '../../server/events/hub.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { FIXTURE_MIGRATIONS, staffToken } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * Large CSV exports and imports as pg-boss jobs, with the threshold lowered to 5 rows (`csvJobRows`): the
 * request answers 202 with a job, progress arrives as `job` events for the requester, the export is
 * downloaded by the requester only, and an import writes all rows or none, its report in the job's output.
 */
const BASE = '/api/v1/test/gadgets';
const BOM = '\uFEFF';
let t: TestApp;
let exporter: string;
let importer: string;
const events: StampedEvent[] = [];

interface Status {
  id: string;
  state: string;
  progress: number | null;
  output: Record<string, unknown> | null;
  error: string | null;
}

beforeAll(async () => {
  const en = catalogs.en.resources as Record<string, unknown>;
  en.gadgets = {
    fields: { name: 'Name', sku: 'SKU', price: 'Price', color: 'Colour', state: 'Enabled' },
    enums: { color: { red: 'Red', green: 'Green', blue: 'Blue' } },
  };
  t = await createTestApp(
    { jobs: true, jobsPollSeconds: 0.5, csvJobRows: 5 },
    { resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS },
  );
  hubFor(t.db).subscribe((event) => {
    if (event.type === 'job') events.push(event);
  });
  await t.db.query(
    `INSERT INTO gadgets (name, sku, price, color, state)
     SELECT 'gadget ' || g, 'J-' || lpad(g::text, 2, '0'), g, CASE WHEN g % 2 = 0 THEN 'green' ELSE 'red' END, g > 3
       FROM generate_series(1, 12) g`,
  );
  exporter = await staffToken(t, 'big-exporter', ['test.gadgets', 'test.gadgets.export']);
  importer = await staffToken(t, 'big-importer', ['test.gadgets', 'test.gadgets.import']);
  // Building the app with pg-boss takes long on a loaded 2-core machine.
}, 180_000);
afterAll(() => t?.close());

const userIdOf = async (username: string) =>
  (await t.db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username])).rows[0]!.id;
/** The name of an import job's stored upload (its data). */
const importFileOf = async (id: string) =>
  (
    await t.db.query<{ file: string }>(`SELECT data->>'file' AS file FROM pgboss.job WHERE id = $1::uuid`, [
      id,
    ])
  ).rows[0]!.file;
const count = async () =>
  Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM gadgets')).rows[0]!.n);

function waitDone(url: string, token: string): Promise<Status> {
  return eventually(
    async () => {
      const res = await t.request({ url, token });
      expect(res.statusCode, res.body).toBe(200);
      const job = res.json().data as Status;
      expect(['completed', 'failed'], `job state ${job.state}`).toContain(job.state);
      return job;
    },
    { timeoutMs: 20_000, intervalMs: 200, what: `the job at ${url} to end` },
  );
}

function upload(csv: string, qs = '', token = importer) {
  const boundary = '----csv-jobs-boundary';
  const payload =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return t.request({
    method: 'POST',
    url: `${BASE}/import${qs}`,
    token,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' },
  });
}

describe('large exports as jobs', () => {
  const query =
    'fields=sku,name,price,color,state&orderBy=price&sortedBy=desc&search=color:green&searchFields=color:=';

  it('streams at or under the threshold', async () => {
    const res = await t.request({
      url: `${BASE}/export?fields=sku&search=price:5&searchFields=price:<=`,
      token: exporter,
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.slice(1).trim().split('\n')).toHaveLength(1 + 5);
  });

  it('answers 202 with a job, reports progress to the requester and offers the file to them only', async () => {
    const res = await t.request({
      url: `${BASE}/export?${query}`,
      token: exporter,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const ticket = res.json().data as { job_id: string; queue: string; state: string };
    expect(ticket).toMatchObject({ queue: 'csv-export', state: 'queued' });
    expect(res.json().code).toBe(200);

    const job = await waitDone(`${BASE}/export/${ticket.job_id}`, exporter);
    expect(job, job.error ?? '').toMatchObject({ state: 'completed', progress: 100, output: { rows: 6 } });
    expect(job).not.toHaveProperty('data');

    const mine = events.filter((e) => (e.data as { id: string }).id === ticket.job_id);
    const userId = await userIdOf('big-exporter');
    const forMe = mine.filter((e) => e.userId === userId);
    expect(forMe.every((e) => e.permission === 'test.gadgets.export')).toBe(true);
    expect(forMe.map((e) => (e.data as { state: string }).state)).toEqual(['active', 'completed']);
    expect(forMe[0]!.data).toMatchObject({ queue: 'csv-export', progress: 100 });
    expect(mine.some((e) => e.permission === 'system.system.jobs' && e.userId === undefined)).toBe(true);

    const download = await t.request({ url: `${BASE}/export/${ticket.job_id}/download`, token: exporter });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(download.headers['content-disposition']).toMatch(
      /^attachment; filename="gadgets-\d{8}-\d{6}\.csv"; filename\*=UTF-8''gadgets-\d{8}-\d{6}\.csv$/,
    );
    expect(download.body.startsWith(BOM)).toBe(true);
    expect(download.body.slice(1).trim().split('\n')).toEqual([
      'SKU,Name,Price,Colour,Enabled',
      'J-12,gadget 12,12,Green,Yes',
      'J-10,gadget 10,10,Green,Yes',
      'J-08,gadget 8,8,Green,Yes',
      'J-06,gadget 6,6,Green,Yes',
      'J-04,gadget 4,4,Green,Yes',
      'J-02,gadget 2,2,Green,No',
    ]);
    // The file is in the file storage, under the jobs' prefix, not in the server's DATA_DIR: compressed once
    // (`.csv.gz`), inflated on the way for this client, which asked for no encoding.
    const stored = await t.storage.stat(`jobs/exports/${ticket.job_id}.csv.gz`);
    expect(stored).not.toBeNull();
    expect(await t.storage.stat(`jobs/exports/${ticket.job_id}.csv`)).toBeNull();
    expect(download.headers['content-encoding']).toBeUndefined();
    expect(download.headers['content-length']).toBe(String(download.rawPayload.length));
    expect(job.output).toMatchObject({ size: download.rawPayload.length, stored: 'gzip' });
    expect(fs.existsSync(path.join(t.config.dataDir, 'exports'))).toBe(false);
    // HEAD: the same headers, no body; a Range header is not honoured (the whole file, 200).
    const head = await t.request({
      method: 'HEAD',
      url: `${BASE}/export/${ticket.job_id}/download`,
      token: exporter,
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(download.headers['content-length']);
    expect(head.headers['content-disposition']).toBe(download.headers['content-disposition']);
    expect(head.body).toBe('');
    const ranged = await t.request({
      url: `${BASE}/export/${ticket.job_id}/download`,
      token: exporter,
      headers: { range: 'bytes=0-9' },
    });
    expect(ranged.statusCode).toBe(200);
    expect(ranged.body).toBe(download.body);

    // Someone else, even an admin or a holder of the same permissions, does not see the job.
    const other = await staffToken(t, 'other-exporter', ['test.gadgets', 'test.gadgets.export']);
    for (const token of [other, await t.adminToken()]) {
      expect((await t.request({ url: `${BASE}/export/${ticket.job_id}/download`, token })).statusCode).toBe(
        404,
      );
      expect((await t.request({ url: `${BASE}/export/${ticket.job_id}`, token })).statusCode).toBe(404);
    }
    // The job queues page shows it to its readers.
    const admin = await t.adminToken();
    const page = await t.request({ url: `/api/v1/system/jobs/csv-export/${ticket.job_id}`, token: admin });
    expect(page.json().data).toMatchObject({ state: 'completed', output: { rows: 6 } });

    // The requester loses .export: 403.
    await t.db.query(`UPDATE roles SET permissions = $1 WHERE name = 'role-big-exporter'`, [
      JSON.stringify({ menu_ids: ['test.gadgets'] }),
    ]);
    const lost = await t.request({ url: `${BASE}/export/${ticket.job_id}/download`, token: exporter });
    expect(lost.statusCode).toBe(403);
    expect((await t.request({ url: `${BASE}/export/not-a-job/download`, token: admin })).statusCode).toBe(
      404,
    );
  });

  it('downloads the stored gzip as it is to a browser and the same CSV inflated to any other client', async () => {
    const token = await staffToken(t, 'gzip-exporter', ['test.gadgets', 'test.gadgets.export']);
    const res = await t.request({ url: `${BASE}/export?${query}`, token });
    expect(res.statusCode, res.body).toBe(202);
    const id = (res.json().data as { job_id: string }).job_id;
    const job = await waitDone(`${BASE}/export/${id}`, token);
    expect(job.state, job.error ?? '').toBe('completed');
    const url = `${BASE}/export/${id}/download`;
    const get = (headers: Record<string, string>) => t.request({ url, token, headers });
    const plain = await get({});
    const stored = await t.storage.open(`jobs/exports/${id}.csv.gz`);
    const storedBytes = Buffer.concat(await stored.stream.toArray());
    // What Chromium sends: the stored bytes as they are, never compressed again (not br, not per download).
    for (const acceptEncoding of ['gzip, deflate, br', 'br;q=1, gzip;q=0.5', '*']) {
      const browser = await get({ 'accept-encoding': acceptEncoding });
      expect(browser.statusCode).toBe(200);
      expect(browser.headers['content-encoding'], acceptEncoding).toBe('gzip');
      expect(browser.headers['vary']).toMatch(/accept-encoding/i);
      expect(browser.headers['content-length']).toBe(String(storedBytes.length));
      expect(browser.rawPayload.equals(storedBytes)).toBe(true);
      expect(zlib.gunzipSync(browser.rawPayload).equals(plain.rawPayload)).toBe(true);
      expect(browser.headers['content-disposition']).toBe(plain.headers['content-disposition']);
    }
    // No Accept-Encoding, identity only, or gzip refused: the decoded CSV, byte for byte, with its length.
    const others: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br, gzip;q=0' },
    ];
    for (const headers of others) {
      const other = await get(headers);
      expect(other.statusCode).toBe(200);
      expect(other.headers['content-encoding']).toBeUndefined();
      expect(other.rawPayload.equals(plain.rawPayload)).toBe(true);
      expect(other.headers['content-length']).toBe(String(plain.rawPayload.length));
    }
    expect(plain.body.startsWith(BOM)).toBe(true);
    expect(plain.body.slice(1).trim().split('\n')).toHaveLength(1 + 6);
  });

  it('old export files are removed from the storage by the clean-temp sweep', async () => {
    const old = csvFileKey('exports', '00000000-0000-4000-8000-000000000000');
    const recent = csvFileKey('exports', '00000000-0000-4000-8000-000000000001');
    const oldGzip = `${csvFileKey('exports', '00000000-0000-4000-8000-000000000002')}.gz`;
    for (const key of [old, recent, oldGzip]) await t.storage.put(key, Readable.from([Buffer.from('x')]));
    // The test app's storage is local (DATA_DIR/uploads): age the file as the driver reports it, by mtime.
    const longAgo = new Date(Date.now() - 48 * 3600 * 1000);
    fs.utimesSync(path.join(t.config.dataDir, 'uploads', old), longAgo, longAgo);
    fs.utimesSync(path.join(t.config.dataDir, 'uploads', oldGzip), longAgo, longAgo);
    // Two hours old: a clean-up set to one hour still keeps a job file a day (a queued import needs it).
    const hoursAgo = new Date(Date.now() - 2 * 3600 * 1000);
    fs.utimesSync(path.join(t.config.dataDir, 'uploads', recent), hoursAgo, hoursAgo);
    expect(await removeOldCsvFiles(t.storage, 1)).toBe(2);
    expect(await t.storage.stat(old)).toBeNull();
    expect(await t.storage.stat(oldGzip)).toBeNull();
    expect(await t.storage.stat(recent)).not.toBeNull();
    await t.storage.remove(recent);
  });
});

describe('large imports as jobs', () => {
  const rows = (n: number, bad?: number) =>
    [
      'Name,SKU,Price,Colour',
      ...Array.from({ length: n }, (_, i) => `Imported ${i},K-${i},${i === bad ? -1 : i + 1},Blue`),
    ].join('\n');

  it('a dry run of a large file reports through the job and writes nothing', async () => {
    const before = await count();
    const res = await upload(rows(7, 2), '?dry_run=1');
    expect(res.statusCode, res.body).toBe(202);
    const { job_id: id, queue } = res.json().data as { job_id: string; queue: string };
    expect(queue).toBe('csv-import');
    const job = await waitDone(`${BASE}/import/${id}`, importer);
    expect(job, job.error ?? '').toMatchObject({
      state: 'completed',
      output: { total: 7, valid: 6, dry_run: true, created: 6 },
    });
    expect(job.output!.errors).toEqual([{ row: 4, errors: { price: ['Must be at least 0'] } }]);
    expect(await count()).toBe(before);
  });

  it('a real run with a bad row writes nothing and reports the row errors', async () => {
    const before = await count();
    const res = await upload(rows(7, 5));
    expect(res.statusCode).toBe(202);
    const job = await waitDone(`${BASE}/import/${res.json().data.job_id}`, importer);
    expect(job.output).toMatchObject({ total: 7, valid: 6, created: 0, updated: 0, dry_run: false });
    expect(job.output!.errors).toEqual([{ row: 7, errors: { price: ['Must be at least 0'] } }]);
    expect(await count()).toBe(before);
  });

  it('a valid file is written in one job: counts, audit rows, the upload removed', async () => {
    const before = await count();
    const res = await upload(rows(7));
    expect(res.statusCode).toBe(202);
    const id = res.json().data.job_id as string;
    const job = await waitDone(`${BASE}/import/${id}`, importer);
    expect(job, job.error ?? '').toMatchObject({
      state: 'completed',
      progress: 100,
      output: { total: 7, created: 7, updated: 0, errors: [] },
    });
    expect(await count()).toBe(before + 7);
    const audit = await t.db.query(
      `SELECT 1 FROM activity_logs a JOIN users u ON u.id = a.operator_id
        WHERE a.action = 'gadgets.create' AND u.username = 'big-importer'`,
    );
    expect(audit.rows.length).toBe(7);
    expect(await t.storage.stat(csvFileKey('imports', await importFileOf(id)))).toBeNull();
    const userId = await userIdOf('big-importer');
    expect(events.some((e) => (e.data as { id: string }).id === id && e.userId === userId)).toBe(true);
    const other = await staffToken(t, 'other-importer', ['test.gadgets', 'test.gadgets.import']);
    expect((await t.request({ url: `${BASE}/import/${id}`, token: other })).statusCode).toBe(404);
  });

  it('checks the header before queueing; small files stay in the request', async () => {
    const bad = await upload(rows(7).replace('Colour', 'Wat'));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ Wat: ['Unknown column'] });
    const small = await upload('name,sku,price\nSmall,S-1,1\n');
    expect(small.statusCode, small.body).toBe(200);
    expect(small.json().data).toMatchObject({ created: 1 });
  });
});

/**
 * Lifecycles that could half-fail (issue 11, 4): a job whose file is gone, a queued job cancelled or
 * deleted, an import that fails mid-way, and a retry after the failure. Each ends with the job in a clear
 * state, nothing half-written, and the API answering as before (no 5xx).
 */
describe('CSV job lifecycles', () => {
  const csv = (prefix: string, n: number) =>
    [
      'Name,SKU,Price,Colour',
      ...Array.from({ length: n }, (_, i) => `${prefix} ${i},${prefix}-${i},${i + 1},Red`),
    ].join('\n');
  const stillAnswers = async () => {
    const list = await t.request({ url: `${BASE}?size=1`, token: await t.adminToken() });
    expect(list.statusCode).toBe(200);
    const created = await t.request({
      method: 'POST',
      url: BASE,
      token: await t.adminToken(),
      payload: { name: 'after', sku: `AFTER-${Date.now()}`, price: 1 },
    });
    expect(created.statusCode, created.body).toBe(201);
  };
  const importJobData = async (file: string) => ({
    resource: 'gadgets',
    user_id: await userIdOf('big-importer'),
    locale: 'en',
    ip: null,
    user_agent: null,
    origin: null,
    file,
    rows: 6,
    dry_run: false,
    upsert: null,
  });

  it('an import whose uploaded file is gone fails with a message that names no server path', async () => {
    const before = await count();
    const id = await t.app.jobs.send(
      'csv-import',
      await importJobData('00000000-0000-4000-8000-00000000dead'),
    );
    const job = await waitDone(`${BASE}/import/${id}`, importer);
    expect(job.state).toBe('failed');
    expect(job.error).toBe('The uploaded file is no longer available; upload it again');
    expect(job.error).not.toMatch(/\/|ENOENT/);
    expect(await count()).toBe(before);
    await stillAnswers();
  });

  it('a queued import cancelled from the jobs page never runs', async () => {
    const before = await count();
    const res = await upload(csv('Cancelled', 6));
    expect(res.statusCode).toBe(202);
    const id = res.json().data.job_id as string;
    // Hold the job back so it is still queued (pg-boss's own option, not a wait in the test).
    await t.db.query(
      `UPDATE pgboss.job SET start_after = now() + interval '1 hour' WHERE id = $1::uuid AND state = 'created'`,
      [id],
    );
    const admin = await t.adminToken();
    const cancel = await t.request({
      method: 'POST',
      url: `/api/v1/system/jobs/csv-import/${id}/cancel`,
      token: admin,
    });
    if (cancel.statusCode === 409) return; // the worker had already taken it: nothing to cancel
    expect(cancel.statusCode, cancel.body).toBe(200);
    const status = await t.request({ url: `${BASE}/import/${id}`, token: importer });
    expect(status.statusCode).toBe(200);
    expect(status.json().data).toMatchObject({ state: 'cancelled' });
    expect(await count()).toBe(before);
    await stillAnswers();
  });

  it('a job row deleted under the requester is a 404 for them, not a 5xx', async () => {
    const res = await upload(csv('Deleted', 6), '?dry_run=1');
    const id = res.json().data.job_id as string;
    await waitDone(`${BASE}/import/${id}`, importer);
    await t.db.query('DELETE FROM pgboss.job WHERE id = $1::uuid', [id]);
    expect((await t.request({ url: `${BASE}/import/${id}`, token: importer })).statusCode).toBe(404);
    const gone = await t.request({ url: `${BASE}/export/${id}/download`, token: exporter });
    expect(gone.statusCode).toBeLessThan(500);
    await stillAnswers();
  });

  it('an import that fails mid-way writes nothing, says why, and a retry after the fix writes it all', async () => {
    const before = await count();
    // A failure that is no row's fault (a constraint would be: that row's error, issue 35), raised by the
    // database at the 4th row inside the import's transaction.
    await t.db.exec(`CREATE FUNCTION lifecycle_no_four() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.sku = 'Midway-3' THEN RAISE EXCEPTION 'lifecycle_no_four'; END IF; RETURN NEW; END $$`);
    await t.db.exec(`CREATE TRIGGER lifecycle_no_four BEFORE INSERT ON gadgets
      FOR EACH ROW EXECUTE FUNCTION lifecycle_no_four()`);
    let id: string;
    try {
      const res = await upload(csv('Midway', 6));
      expect(res.statusCode).toBe(202);
      id = res.json().data.job_id as string;
      const job = await waitDone(`${BASE}/import/${id}`, importer);
      expect(job.state, JSON.stringify(job)).toBe('failed');
      expect(job.error).toBeTruthy();
      expect(job.error).not.toMatch(/lifecycle_no_four|INSERT|gadgets|\//);
      expect(await count()).toBe(before);
      // The upload is kept for a retry.
      expect(await t.storage.stat(csvFileKey('imports', await importFileOf(id)))).not.toBeNull();
      await stillAnswers();
    } finally {
      await t.db.exec('DROP TRIGGER lifecycle_no_four ON gadgets');
      await t.db.exec('DROP FUNCTION lifecycle_no_four()');
    }
    const afterFailure = await count();
    const admin = await t.adminToken();
    const retry = await t.request({
      method: 'POST',
      url: `/api/v1/system/jobs/csv-import/${id}/retry`,
      token: admin,
    });
    expect(retry.statusCode, retry.body).toBe(200);
    const again = await waitDone(`${BASE}/import/${id}`, importer);
    expect(again, again.error ?? '').toMatchObject({ state: 'completed', output: { created: 6 } });
    expect(await count()).toBe(afterFailure + 6);
    expect(await t.storage.stat(csvFileKey('imports', await importFileOf(id!)))).toBeNull();
  });
});

describe('field access in CSV jobs', () => {
  // A role hiding `price` and making `color` read-only (issue 30, item 4): the job writes the file with the
  // columns the requester may see, and an import carrying a column it may not write is refused before any job.
  let token: string;
  beforeAll(async () => {
    token = await staffToken(t, 'restricted-csv', [
      'test.gadgets',
      'test.gadgets.export',
      'test.gadgets.import',
    ]);
    await t.db.query(
      `UPDATE roles SET field_access = '{"gadgets.price": "hidden", "gadgets.color": "read"}' WHERE name = $1`,
      ['role-restricted-csv'],
    );
  });

  it('an export job leaves hidden columns out', async () => {
    const res = await t.request({
      url: `${BASE}/export?orderBy=sku&search=color:green&searchFields=color:=`,
      token,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const ticket = res.json().data as { job_id: string };
    const job = await waitDone(`${BASE}/export/${ticket.job_id}`, token);
    expect(job, job.error ?? '').toMatchObject({ state: 'completed', output: { rows: 6 } });
    const download = await t.request({ url: `${BASE}/export/${ticket.job_id}/download`, token });
    const [header, ...lines] = download.body.slice(1).trim().split('\n');
    expect(header).toContain('Colour');
    expect(header).not.toContain('Price');
    expect(lines).toHaveLength(6);
  });

  it('an import of a file over the threshold with a read-only column is refused before any job', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => `FA-J-${i},fa ${i},1,green`);
    const before = await count();
    const { rows: jobsBefore } = await t.db.query(
      `SELECT count(*) AS n FROM pgboss.job WHERE name = 'csv-import'`,
    );
    const res = await upload(`sku,name,price,color\n${rows.join('\n')}\n`, '', token);
    expect(res.statusCode, res.body).toBe(403);
    expect(Object.keys(res.json().errors).sort()).toEqual(['color', 'price']);
    const { rows: jobsAfter } = await t.db.query(
      `SELECT count(*) AS n FROM pgboss.job WHERE name = 'csv-import'`,
    );
    expect(jobsAfter).toEqual(jobsBefore);
    expect(await count()).toBe(before);
  });
});
