import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { FIXTURE_MIGRATIONS, staffToken } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * Issue 37 item 1: an export job sent by a server that works the export queue itself is taken at once, not
 * at the worker's next poll. The polling interval here is an hour, so a job that waited for the poll would
 * never end within the test's deadline; each export must still complete, one after the other (after each
 * batch the worker sleeps a whole interval again, so every send has to wake it).
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let exporter: string;

beforeAll(async () => {
  t = await createTestApp(
    { jobs: true, jobsPollSeconds: 3600, csvJobRows: 5 },
    { resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS },
  );
  await t.db.query(
    `INSERT INTO gadgets (name, sku, price, color, state)
     SELECT 'gadget ' || g, 'P-' || lpad(g::text, 2, '0'), g, 'red', true FROM generate_series(1, 12) g`,
  );
  exporter = await staffToken(t, 'pickup-exporter', ['test.gadgets', 'test.gadgets.export']);
  // Building the app with pg-boss takes long on a loaded 2-core machine.
}, 180_000);
afterAll(() => t?.close());

describe('export job pick-up', () => {
  it('runs each job this server sends without waiting for the polling interval', async () => {
    for (const limit of [12, 9, 7]) {
      const res = await t.request({
        url: `${BASE}/export?fields=sku&search=price:${limit}&searchFields=price:<=&orderBy=price`,
        token: exporter,
      });
      expect(res.statusCode, res.body).toBe(202);
      const id = (res.json().data as { job_id: string }).job_id;
      const job = await eventually(
        async () => {
          const status = await t.request({ url: `${BASE}/export/${id}`, token: exporter });
          const data = status.json().data as { state: string; output: { rows: number } | null };
          expect(data.state).toBe('completed');
          return data;
        },
        { timeoutMs: 30_000, intervalMs: 100, what: `export job ${id} to complete (polling is hourly)` },
      );
      expect(job.output).toMatchObject({ rows: limit });
      const download = await t.request({ url: `${BASE}/export/${id}/download`, token: exporter });
      expect(download.statusCode).toBe(200);
      const lines = download.body.slice(1).trim().split('\n');
      expect(lines).toHaveLength(1 + limit);
      expect(lines[limit]).toBe(`P-${String(limit).padStart(2, '0')}`);
    }
  });
});
