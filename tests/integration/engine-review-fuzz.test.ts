import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { ODD_VALUES } from '../helpers/arbitrary.ts';
import { createGadgetApp, staffToken } from '../fixtures/engine-app.ts';

/**
 * Review of issues 35 and 36: the routes they added to every resource (row and bulk actions, history,
 * restore of a version, the trash, presence, undo of an operation, computed columns in the list language)
 * as the fixture mounts them, which the contract gate (the product's own document) does not reach. Junk in
 * every place a client can put it (bodies of each wrong kind, path ids, query values, If-Match), as an
 * administrator, a reader and someone signed in with no grant: never a 5xx, always the error envelope with
 * a message in the request's language.
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
const tokens: Record<string, string> = {};
let id = '';

const BODIES: unknown[] = [
  ...ODD_VALUES,
  { quantity: '3' },
  { quantity: null },
  { quantity: [1] },
  { quantity: { $gt: 1 } },
  { quantity: 2 ** 40 },
  { version: 'x' },
  { version: -1 },
  { version: 2 ** 63 },
  { version: null },
  { version: [1] },
  { version: 1.5 },
  { state: 'maybe' },
  { state: ['editing'] },
  { __proto__: { isAdmin: true }, quantity: 1 },
  JSON.parse('{"constructor":{"prototype":{"polluted":1}},"quantity":1}'),
  // An action's body is `{ version?, input? }`: junk in each.
  ...ODD_VALUES.map((input) => ({ input })),
  ...ODD_VALUES.map((version) => ({ version, input: { quantity: 1 } })),
  { input: { quantity: '1' } },
  { input: { quantity: 1, extra: 'x'.repeat(100_000) } },
  { input: JSON.parse('{"__proto__":{"quantity":1}}') },
];
const IDS = [
  '0',
  '-1',
  'abc',
  '1.5',
  '9223372036854775808',
  '99999999999999999999999',
  '%00',
  '%E2%80%AE',
  "1'--",
];
const QUERY_VALUES = [
  'stock_value',
  'stock_value;DROP TABLE gadgets',
  'stock_value:>=:1',
  '(select 1)',
  'label',
  'price*stock',
  'x'.repeat(3000),
  '%00',
  '\u0000',
  'stock_value:between:1,',
  'stock_value:between:a,b',
  'stock_value:>=:1e999',
  "stock_value:>=:1' OR '1'='1",
];

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
interface Probe {
  method: Method;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

beforeAll(async () => {
  t = await createGadgetApp();
  tokens.admin = await t.adminToken();
  tokens.reader = await staffToken(t, 'fuzz_reader', ['test.gadgets']);
  tokens.nobody = await staffToken(t, 'fuzz_nobody', []);
  const made = await t.request({
    method: 'POST',
    url: BASE,
    token: tokens.admin,
    payload: { name: 'Fuzz', sku: 'FUZZ-1', price: 2, stock: 5 },
  });
  expect(made.statusCode, made.body).toBe(201);
  id = made.json().data.id as string;
});
afterAll(async () => {
  await t.close();
});

function probes(): Probe[] {
  const out: Probe[] = [];
  for (const payload of BODIES) {
    out.push({ method: 'POST', url: `${BASE}/${id}/actions/ship`, payload });
    out.push({ method: 'POST', url: `${BASE}/actions/retire?ids=${id}`, payload });
    out.push({ method: 'POST', url: `${BASE}/${id}/restore`, payload });
    out.push({ method: 'POST', url: `${BASE}/${id}/presence`, payload });
    out.push({ method: 'POST', url: '/api/v1/operations/1/undo', payload });
    out.push({ method: 'PATCH', url: `${BASE}/${id}`, payload });
  }
  for (const bad of IDS) {
    out.push({ method: 'POST', url: `${BASE}/${bad}/actions/ship`, payload: { input: { quantity: 1 } } });
    out.push({ method: 'POST', url: `${BASE}/actions/retire?ids=${bad}`, payload: {} });
    out.push({ method: 'GET', url: `${BASE}/${bad}/history` });
    out.push({ method: 'POST', url: `${BASE}/${bad}/restore`, payload: { version: 1 } });
    out.push({ method: 'POST', url: `${BASE}/trash/${bad}/restore`, payload: {} });
    out.push({ method: 'DELETE', url: `${BASE}/trash/${bad}` });
    out.push({ method: 'POST', url: `${BASE}/${bad}/presence`, payload: { state: 'editing' } });
    out.push({ method: 'POST', url: `/api/v1/operations/${bad}/undo`, payload: {} });
    out.push({ method: 'POST', url: `${BASE}/${id}/actions/${bad}`, payload: {} });
  }
  for (const raw of QUERY_VALUES) {
    const v = encodeURIComponent(raw);
    out.push({ method: 'GET', url: `${BASE}?orderBy=${v}&sortedBy=desc` });
    out.push({ method: 'GET', url: `${BASE}?orderBy=stock_value&sortedBy=${v}` });
    out.push({ method: 'GET', url: `${BASE}?search=${v}&searchFields=${v}` });
    out.push({ method: 'GET', url: `${BASE}?search=stock_value:${v}&searchFields=stock_value:between` });
    out.push({ method: 'GET', url: `${BASE}/trash?orderBy=${v}&search=${v}` });
    out.push({ method: 'GET', url: `${BASE}/${id}/history?page=${v}&size=${v}` });
    out.push({ method: 'GET', url: `/api/v1/search?q=${v}&limit=${v}` });
    out.push({ method: 'GET', url: `${BASE}/export?format=xlsx&orderBy=${v}` });
    for (const header of ['if-match']) {
      out.push({
        method: 'PATCH',
        url: `${BASE}/${id}`,
        payload: { name: 'Fuzz' },
        headers: { [header]: raw },
      });
      out.push({
        method: 'POST',
        url: `${BASE}/${id}/actions/ship`,
        payload: { input: { quantity: 1 } },
        headers: { [header]: raw },
      });
    }
  }
  return out;
}

describe('junk on the routes of issues 35 and 36', () => {
  it('never answers 5xx; every error is the envelope with a message in the language asked', async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const [who, token] of Object.entries(tokens))
      // Every probe as the administrator in English (past the permission checks); a third of them in zh-CN
      // for each caller (their messages, the refusals of the others).
      for (const lang of ['en', 'zh-CN'])
        for (const probe of probes().filter((_, n) => (who === 'admin' && lang === 'en') || n % 3 === 0)) {
          const isJson = probe.payload !== undefined;
          const res = await t.request({
            method: probe.method,
            url: probe.url,
            token,
            headers: { 'accept-language': lang, ...(probe.headers ?? {}) },
            ...(isJson
              ? {
                  payload: JSON.stringify(probe.payload) ?? 'null',
                  headers: {
                    'accept-language': lang,
                    'content-type': 'application/json',
                    ...(probe.headers ?? {}),
                  },
                }
              : {}),
          });
          sent += 1;
          const where = `${who} ${lang} ${probe.method} ${probe.url.slice(0, 160)} ${JSON.stringify(probe.payload)?.slice(0, 80)} ${JSON.stringify(probe.headers ?? {})}`;
          if (res.statusCode >= 500) {
            problems.push(`${res.statusCode} ${where}: ${res.body.slice(0, 200)}`);
            continue;
          }
          if (res.statusCode < 400) continue;
          const body = res.json() as { code?: number; message?: unknown };
          if (body.code !== res.statusCode || typeof body.message !== 'string' || !body.message)
            problems.push(`not the envelope: ${where}: ${res.body.slice(0, 200)}`);
          else if (lang === 'zh-CN' && /^[\x20-\x7e]+$/.test(body.message))
            problems.push(`English message in zh-CN: ${where}: ${body.message}`);
          else if (/\b(select|insert|update|delete)\b.*\b(from|into|set)\b|at .+\.ts:\d+/i.test(body.message))
            problems.push(`SQL or a stack in the message: ${where}: ${body.message}`);
        }
    console.log(`review fuzz: ${sent} requests, ${problems.length} problems`);
    expect([...new Set(problems)].slice(0, 40)).toEqual([]);
    // The quoted SQL held: the tables are there and the record keeps what no valid body changed.
    const { rows } = await t.db.query<{ name: string; sku: string }>(
      'SELECT name, sku FROM gadgets WHERE id = $1',
      [id],
    );
    expect(rows).toEqual([{ name: 'Fuzz', sku: 'FUZZ-1' }]);
    expect((await t.db.query("SELECT 1 FROM users WHERE username = 'admin'")).rows).toHaveLength(1);
  }, 600_000);
});
