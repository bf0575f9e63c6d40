import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { formatDateTime, formatNative } from '../../src/lib/localeDate.ts';

/**
 * Issue 34 item 7: one time format per language, shared by the screens and the CSV export
 * (schemas/timeFormat.ts). Generated records with times to the millisecond, in a site time zone with
 * daylight saving time: each exported cell is the string the list shows (src/lib/localeDate.ts, in a
 * browser whose zone is the site's), and importing the untouched file back, in either language, changes
 * nothing. Runs on PGlite and (`npm run test:pg`) PostgreSQL 15.
 */
const BASE = '/api/v1/test/gadgets';
const ZONE = 'America/New_York';
const SEED = 34;
const COUNT = 40;
let t: TestApp;
let admin: string;
const previousTz = process.env.TZ;

beforeAll(async () => {
  // The screens format in the browser's zone: this process plays a browser in the site's zone.
  process.env.TZ = ZONE;
  t = await createGadgetApp();
  admin = await t.adminToken();
  const site = await t.request({ url: '/api/v1/settings/site', token: admin });
  const put = await t.request({
    method: 'POST',
    url: '/api/v1/settings/site',
    token: admin,
    payload: { ...site.json().data, timezone: ZONE },
  });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

/** A small seeded generator (mulberry32): the same records on every run and on both databases. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const wall = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  hourCycle: 'h23',
  dateStyle: 'short',
  timeStyle: 'medium',
});

/**
 * A wall clock the zone shows twice (the hour repeated when daylight saving time ends) names two instants:
 * a file without offsets cannot tell them apart, so the generator leaves that hour out.
 */
function isAmbiguous(ms: number): boolean {
  const w = wall.format(ms);
  return wall.format(ms - 3_600_000) === w || wall.format(ms + 3_600_000) === w;
}

function generated(): {
  name: string;
  sku: string;
  price: number;
  launched_at: string;
  released_on: string;
}[] {
  const next = random(SEED);
  const from = Date.UTC(1971, 0, 1);
  const to = Date.UTC(2099, 0, 1);
  // Instants around the 2026 transitions first (the gap and the hour after the repeat), then random ones.
  const instants = [Date.UTC(2026, 2, 8, 7, 0, 0, 1), Date.UTC(2026, 10, 1, 7, 30, 59, 999)];
  while (instants.length < COUNT) {
    const ms = Math.floor(from + next() * (to - from));
    if (!isAmbiguous(ms)) instants.push(ms);
  }
  return instants.map((ms, i) => ({
    name: `Timed ${i}`,
    sku: `TF-${String(i).padStart(3, '0')}`,
    price: i + 1,
    launched_at: new Date(ms).toISOString(),
    released_on: new Date(ms).toISOString().slice(0, 10),
  }));
}

function upload(csv: string, lang: string) {
  const boundary = '----time-format-boundary';
  const payload =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="gadgets.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  return t.request({
    method: 'POST',
    url: `${BASE}/import`,
    token: admin,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': lang },
  });
}

async function records(): Promise<Record<string, unknown>[]> {
  const res = await t.request({
    url: `${BASE}?orderBy=sku&size=100`,
    token: admin,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: { data: Record<string, unknown>[] } }).data.data;
}

describe('one time format for the screens and the CSV export', () => {
  it('writes each time as the list shows it, and an untouched export imports back unchanged', async () => {
    for (const r of generated()) {
      const res = await t.request({ method: 'POST', url: BASE, token: admin, payload: r });
      expect(res.statusCode, res.body).toBe(201);
    }
    const before = await records();
    expect(before).toHaveLength(COUNT);
    expect(before.filter((r) => !String(r.launched_at).endsWith('.000Z')).length).toBeGreaterThan(COUNT / 2);
    for (const lang of ['en', 'zh-CN']) {
      const exported = await t.request({
        url: `${BASE}/export?fields=id,sku,launched_at,released_on&orderBy=sku`,
        token: admin,
        headers: { 'accept-language': lang },
      });
      expect(exported.statusCode, exported.body).toBe(200);
      const [, ...rows] = parseCsv(exported.body.replace(/^\uFEFF/, '')) as string[][];
      expect(rows).toHaveLength(COUNT);
      rows.forEach(([, sku, launched, released], i) => {
        const record = before[i]!;
        expect(sku).toBe(record.sku);
        // The string the list and show screens render for the same value (LocaleDateField).
        expect(launched, `${lang} ${String(record.launched_at)}`).toBe(
          formatDateTime(record.launched_at, lang),
        );
        expect(released).toBe(formatNative(String(record.released_on), 'date', lang));
      });
      const res = await upload(exported.body, lang);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        total: COUNT,
        created: 0,
        updated: 0,
        unchanged: COUNT,
        errors: [],
      });
      expect(await records()).toEqual(before);
    }
  });

  it('a row changed elsewhere keeps its time to the millisecond', async () => {
    const before = await records();
    const record = before.find((r) => !String(r.launched_at).endsWith('.000Z'))!;
    const exported = await t.request({
      url: `${BASE}/export?fields=id,name,launched_at&search=sku:${String(record.sku)}`,
      token: admin,
      headers: { 'accept-language': 'zh-CN' },
    });
    const file = exported.body.replace(`,${String(record.name)},`, ',Renamed,');
    expect(file).not.toBe(exported.body);
    const res = await upload(file, 'zh-CN');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ updated: 1, unchanged: 0, errors: [] });
    const after = (await records()).find((r) => r.id === record.id)!;
    expect(after.name).toBe('Renamed');
    expect(after.launched_at).toBe(record.launched_at);
  });
});
