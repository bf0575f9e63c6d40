import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogs } from '../../locales/index.ts';
import { removeOldCsvFiles } from '../../server/engine/csv-files.ts';
import { hubFor, type StampedEvent } from '../../server/events/hub.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { FIXTURE_MIGRATIONS, staffToken } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';

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
});
afterAll(() => t?.close());

const userIdOf = async (username: string) =>
  (await t.db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username])).rows[0]!.id;
const count = async () =>
  Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM gadgets')).rows[0]!.n);

async function waitDone(url: string, token: string): Promise<Status> {
  const end = Date.now() + 20_000;
  for (;;) {
    const res = await t.request({ url, token });
    expect(res.statusCode, res.body).toBe(200);
    const job = res.json().data as Status;
    if (job.state === 'completed' || job.state === 'failed') return job;
    if (Date.now() > end) throw new Error(`job stayed ${job.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
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
    const dir = path.join(t.config.dataDir, 'exports');
    expect(fs.readdirSync(dir)).toContain(`${ticket.job_id}.csv`);
    expect(fs.readdirSync(dir).some((n) => n.endsWith('.part'))).toBe(false);

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

  it('old export files are removed by the clean-temp sweep', async () => {
    const dir = path.join(t.config.dataDir, 'exports');
    const old = path.join(dir, '00000000-0000-4000-8000-000000000000.csv');
    fs.writeFileSync(old, 'x');
    const longAgo = new Date(Date.now() - 48 * 3600 * 1000);
    fs.utimesSync(old, longAgo, longAgo);
    const before = fs.readdirSync(dir).length;
    expect(await removeOldCsvFiles(t.config.dataDir, 24)).toBe(1);
    expect(fs.existsSync(old)).toBe(false);
    expect(fs.readdirSync(dir).length).toBe(before - 1);
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
      output: { total: 7, valid: 6, dry_run: true, created: 0 },
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
    expect(fs.readdirSync(path.join(t.config.dataDir, 'imports'))).toEqual([]);
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
