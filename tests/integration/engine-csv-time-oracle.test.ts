import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { sqlTimePattern } from '../../schemas/timeFormat.ts';

/**
 * Issue 37 item 1: the export writes a time cell as `to_char(ts, pattern)` with the site's zone as the
 * session's TimeZone, instead of `to_char(ts AT TIME ZONE zone, pattern)` per cell (cheaper). The oracle is
 * the old form, computed by the same database: every exported cell must be its text, byte for byte, for
 * seeded instants from 1850 to 2100 (historical offsets with seconds, e.g. Shanghai's LMT), the instants
 * around daylight-saving transitions, fractions up to .999999 (truncated, never rounded), and NULL, in
 * zones with DST (whole hours, Lord Howe's half hour, the southern hemisphere), odd offsets and UTC, in both
 * languages. Runs on PGlite and (`npm run test:pg`) PostgreSQL 15.
 */
const BASE = '/api/v1/test/gadgets';
const ZONES = [
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'America/Sao_Paulo',
  'Asia/Kathmandu',
  'Asia/Shanghai',
  'UTC',
];
const SEED = 37;
const RANDOM = 60;
let t: TestApp;
let admin: string;

/** mulberry32: the same instants on every run and on both databases. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** Instants as PostgreSQL timestamptz literals (microseconds), and null. */
function instants(): (string | null)[] {
  const next = random(SEED);
  const out: (string | null)[] = [null];
  // Around 2026's transitions in the zones above (UTC instants), a microsecond either side.
  for (const edge of [
    '2026-03-08 07:00:00',
    '2026-11-01 06:00:00',
    '2026-03-29 01:00:00',
    '2026-10-25 01:00:00',
    '2026-04-04 15:00:00',
    '2026-10-03 15:30:00',
  ]) {
    out.push(
      `${edge}+00`,
      `${edge}.000001+00`,
      `${new Date(Date.parse(`${edge}Z`) - 1).toISOString().slice(0, 19).replace('T', ' ')}.999999+00`,
    );
  }
  out.push('1850-06-01 12:34:56.5+00', '1900-01-01 00:00:00+00', '1927-12-31 23:59:59.999999+00');
  const from = Date.UTC(1850, 0, 1);
  const to = Date.UTC(2100, 0, 1);
  for (let i = 0; i < RANDOM; i++) {
    const ms = Math.floor(from + next() * (to - from));
    const micros = String(Math.floor(next() * 1_000_000)).padStart(6, '0');
    out.push(`${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}.${micros}+00`);
  }
  return out;
}

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  const values = instants();
  await t.db.query(
    `INSERT INTO gadgets (name, sku, price, launched_at)
     SELECT 'Oracle ' || i, 'TO-' || lpad(i::text, 3, '0'), i, v::timestamptz
       FROM unnest($1::text[]) WITH ORDINALITY AS u(v, i)`,
    [values],
  );
});
afterAll(() => t?.close());

describe('the export time cell against its former SQL form', () => {
  it('writes exactly the text of to_char(ts AT TIME ZONE zone, pattern) in every zone and language', async () => {
    const site = (await t.request({ url: '/api/v1/settings/site', token: admin })).json().data;
    let compared = 0;
    for (const zone of ZONES) {
      const put = await t.request({
        method: 'POST',
        url: '/api/v1/settings/site',
        token: admin,
        payload: { ...site, timezone: zone },
      });
      expect(put.statusCode, put.body).toBe(200);
      for (const lang of ['en', 'zh-CN']) {
        const exported = await t.request({
          url: `${BASE}/export?fields=sku,launched_at&orderBy=sku`,
          token: admin,
          headers: { 'accept-language': lang },
        });
        expect(exported.statusCode, exported.body).toBe(200);
        const [, ...rows] = parseCsv(exported.body.replace(/^\uFEFF/, '')) as string[][];
        const { rows: oracle } = await t.db.query<{ sku: string; cell: string | null }>(
          `SELECT sku, to_char(launched_at AT TIME ZONE $1, $2) AS cell FROM gadgets WHERE sku LIKE 'TO-%'`,
          [zone, sqlTimePattern(lang, 'datetime')],
        );
        const expected = new Map(oracle.map((r) => [r.sku, r.cell ?? '']));
        expect(oracle.some((r) => r.cell === null)).toBe(true);
        const mine = rows.filter(([sku]) => sku!.startsWith('TO-'));
        expect(mine.length).toBe(oracle.length);
        for (const [sku, cell] of mine) {
          expect(cell, `${zone} ${lang} ${sku}`).toBe(expected.get(sku!));
          compared++;
        }
      }
    }
    expect(compared).toBe(ZONES.length * 2 * instants().length);
  });
});
