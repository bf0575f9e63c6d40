import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp, staffToken } from '../fixtures/engine-app.ts';
import { openSse, type SseStream } from '../helpers/sse.ts';

/**
 * Versions, history and restore (contract: "Nothing lost"): every record answers `version`, every write
 * bumps it, a PATCH naming a stale one (body or If-Match) is a 409 carrying the current record and writes
 * nothing; bulk calls and inline children bump it; `GET <path>/<id>/history` pages the versions newest first
 * without hidden fields; `POST <path>/<id>/restore` writes an old version's values as a new version.
 */
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;
let base: string;
const streams: SseStream[] = [];

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of several shapes, checked by matchers
type Loose = any;
type Json = { code: number; message?: string; data: Loose; errors?: Record<string, string[]> };
async function call(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
  { token = admin, headers = {} }: { token?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json }> {
  const res = await t.request({
    method,
    url,
    token,
    headers: { 'accept-language': 'en', ...headers },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as Json };
}

let serial = 0;
async function gadget(extra: object = {}): Promise<Loose> {
  serial += 1;
  const res = await call('POST', BASE, { name: `V ${serial}`, sku: `V-${serial}`, price: 1, ...extra });
  expect(res.status).toBe(201);
  return res.body.data;
}

async function auditRows(id: string): Promise<number> {
  const { rows } = await t.db.query<{ n: string }>(
    `SELECT count(*) AS n FROM activity_logs WHERE subject_type = 'gadgets' AND subject_id = $1`,
    [id],
  );
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await t.close();
});

describe('versions', () => {
  it('starts at 1, answers it on read and list, and bumps it on every write', async () => {
    const g = await gadget();
    expect(g.version).toBe(1);
    const read = await call('GET', `${BASE}/${g.id}`);
    expect(read.body.data.version).toBe(1);
    const list = await call('GET', `${BASE}?search=id:${g.id}`);
    expect(list.body.data.data[0].version).toBe(1);
    const first = await call('PATCH', `${BASE}/${g.id}`, { price: 2 });
    expect(first.body.data.version).toBe(2);
    // A write without a version applies (scripts) and still bumps it.
    const second = await call('PATCH', `${BASE}/${g.id}`, { price: 2 });
    expect(second.status).toBe(200);
    expect(second.body.data.version).toBe(3);
  });

  it('refuses a stale body version with a 409 carrying the current record, and writes nothing', async () => {
    const g = await gadget();
    const ok = await call('PATCH', `${BASE}/${g.id}`, { price: 5, version: 1 });
    expect(ok.status).toBe(200);
    expect(ok.body.data.version).toBe(2);
    const before = await auditRows(g.id);
    const stale = await call('PATCH', `${BASE}/${g.id}`, { price: 9, version: 1 });
    expect(stale.status).toBe(409);
    expect(Object.keys(stale.body.errors ?? {})).toEqual(['version']);
    expect(stale.body.data).toMatchObject({ id: g.id, price: 5, version: 2 });
    expect(stale.body.message).toMatch(/saved this record/);
    const read = await call('GET', `${BASE}/${g.id}`);
    expect(read.body.data).toMatchObject({ price: 5, version: 2 });
    expect(await auditRows(g.id)).toBe(before);
  });

  it('takes the version from If-Match, in quotes, weak or bare', async () => {
    const g = await gadget();
    const stale = await call('PATCH', `${BASE}/${g.id}`, { price: 3 }, { headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(409);
    expect(stale.body.data.version).toBe(1);
    const quoted = await call('PATCH', `${BASE}/${g.id}`, { price: 3 }, { headers: { 'if-match': '"1"' } });
    expect(quoted.body.data.version).toBe(2);
    const weak = await call('PATCH', `${BASE}/${g.id}`, { price: 4 }, { headers: { 'if-match': 'W/"2"' } });
    expect(weak.body.data.version).toBe(3);
    const bare = await call('PATCH', `${BASE}/${g.id}`, { price: 4 }, { headers: { 'if-match': '3' } });
    expect(bare.body.data.version).toBe(4);
    const bad = await call('PATCH', `${BASE}/${g.id}`, { price: 4 }, { headers: { 'if-match': '"x"' } });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {})).toEqual(['version']);
    const badBody = await call('PATCH', `${BASE}/${g.id}`, { price: 4, version: 0 });
    expect(badBody.status).toBe(422);
  });

  it("gives the 409 in the caller's view: a hidden field is not in the current record", async () => {
    const g = await gadget({ price: 12 });
    const token = await staffToken(t, 'versions-hidden', ['test.gadgets', 'test.gadgets.update']);
    await t.db.query(
      `UPDATE roles SET field_access = '{"gadgets.price": "hidden"}'::jsonb WHERE name = 'role-versions-hidden'`,
    );
    await call('PATCH', `${BASE}/${g.id}`, { name: 'moved on' });
    const stale = await call('PATCH', `${BASE}/${g.id}`, { name: 'mine', version: 1 }, { token });
    expect(stale.status).toBe(409);
    expect(stale.body.data).toMatchObject({ id: g.id, name: 'moved on', version: 2 });
    expect(stale.body.data).not.toHaveProperty('price');
  });

  it('bumps the parent when its inline children change, and every record of a bulk call', async () => {
    const g = await gadget({ parts: [{ name: 'a' }] });
    expect(g.version).toBe(1);
    const changed = await call('PATCH', `${BASE}/${g.id}`, { parts: [{ name: 'b' }], version: 1 });
    expect(changed.status).toBe(200);
    expect(changed.body.data.version).toBe(2);
    const other = await gadget();
    const bulk = await call('PATCH', `${BASE}?ids=${g.id},${other.id}`, { price: 8, version: 1 });
    expect(bulk.status).toBe(200);
    expect((await call('GET', `${BASE}/${g.id}`)).body.data.version).toBe(3);
    expect((await call('GET', `${BASE}/${other.id}`)).body.data.version).toBe(2);
  });
});

describe('history and restore', () => {
  it('pages the versions newest first, with who and what changed', async () => {
    const g = await gadget({ price: 1 });
    for (let price = 2; price <= 4; price++) await call('PATCH', `${BASE}/${g.id}`, { price });
    const page1 = await call('GET', `${BASE}/${g.id}/history?size=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.data.meta.pagination).toMatchObject({ total: 4, per_page: 2, current_page: 1 });
    expect(page1.body.data.data.map((e: Loose) => e.version)).toEqual([4, 3]);
    expect(page1.body.data.data[0]).toMatchObject({
      action: 'update',
      actor: { username: 'admin' },
      changes: { price: [3, 4] },
    });
    expect(page1.body.data.data[0].changes).not.toHaveProperty('version');
    const page2 = await call('GET', `${BASE}/${g.id}/history?size=2&page=2`);
    expect(page2.body.data.data.map((e: Loose) => [e.version, e.action])).toEqual([
      [2, 'update'],
      [1, 'create'],
    ]);
  });

  it('leaves hidden fields out of the history, and 404s a record out of reach', async () => {
    const g = await gadget({ price: 1 });
    await call('PATCH', `${BASE}/${g.id}`, { price: 2, name: 'renamed' });
    const token = await staffToken(t, 'history-hidden', ['test.gadgets']);
    await t.db.query(
      `UPDATE roles SET field_access = '{"gadgets.price": "hidden"}'::jsonb WHERE name = 'role-history-hidden'`,
    );
    const seen = await call('GET', `${BASE}/${g.id}/history`, undefined, { token });
    expect(seen.status).toBe(200);
    for (const entry of seen.body.data.data) expect(entry.changes).not.toHaveProperty('price');
    expect(seen.body.data.data[0].changes).toHaveProperty('name');
    expect((await call('GET', `${BASE}/999999/history`)).status).toBe(404);
    const noRead = await staffToken(t, 'history-none', ['test.gadget_tags']);
    expect((await call('GET', `${BASE}/${g.id}/history`, undefined, { token: noRead })).status).toBe(403);
  });

  it('restores an old version as a new one, audited as restore, keeping fields the caller may not write', async () => {
    const g = await gadget({ price: 1, name: 'first' });
    await call('PATCH', `${BASE}/${g.id}`, { price: 2, name: 'second' });
    await call('PATCH', `${BASE}/${g.id}`, { price: 3, name: 'third' });
    const restored = await call('POST', `${BASE}/${g.id}/restore`, { version: 1 });
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ price: 1, name: 'first', version: 4 });
    const history = await call('GET', `${BASE}/${g.id}/history?size=1`);
    expect(history.body.data.data[0]).toMatchObject({ version: 4, action: 'restore' });
    const { rows } = await t.db.query(
      `SELECT 1 FROM activity_logs WHERE action = 'gadgets.restore' AND subject_id = $1`,
      [g.id],
    );
    expect(rows).toHaveLength(1);

    const token = await staffToken(t, 'restore-read-only', ['test.gadgets', 'test.gadgets.update']);
    await t.db.query(
      `UPDATE roles SET field_access = '{"gadgets.price": "read"}'::jsonb WHERE name = 'role-restore-read-only'`,
    );
    const partial = await call('POST', `${BASE}/${g.id}/restore`, { version: 3 }, { token });
    expect(partial.status).toBe(200);
    expect(partial.body.data).toMatchObject({ name: 'third', price: 1, version: 5 });

    expect((await call('POST', `${BASE}/${g.id}/restore`, { version: 99 })).status).toBe(422);
    expect((await call('POST', `${BASE}/${g.id}/restore`, { version: 'x' })).status).toBe(422);
    const reader = await staffToken(t, 'restore-reader', ['test.gadgets']);
    expect((await call('POST', `${BASE}/${g.id}/restore`, { version: 1 }, { token: reader })).status).toBe(
      403,
    );
  });
});

describe('presence', () => {
  it('tells the others who may see the record that someone is editing it, and when they leave', async () => {
    const g = await gadget();
    const watcher = await openSse(base, admin);
    streams.push(watcher);
    await watcher.connected();
    const editor = await staffToken(t, 'presence-editor', ['test.gadgets', 'test.gadgets.update']);
    await t.db.query(`UPDATE users SET name = 'Editor Lin' WHERE username = 'presence-editor'`);
    const said = await call('POST', `${BASE}/${g.id}/presence`, { state: 'editing' }, { token: editor });
    expect(said.status).toBe(200);
    const editing = await watcher.waitFor((e) => e.event === 'presence');
    expect(editing.data).toMatchObject({
      resource: 'gadgets',
      id: g.id,
      state: 'editing',
      name: 'Editor Lin',
      ttl_seconds: 45,
    });
    await call('POST', `${BASE}/${g.id}/presence`, { state: 'left' }, { token: editor });
    const left = await watcher.waitFor(
      (e) => e.event === 'presence' && (e.data as { state: string }).state === 'left',
    );
    expect(left.data).toMatchObject({ id: g.id, name: 'Editor Lin' });
    expect((await call('POST', `${BASE}/999999/presence`, { state: 'editing' })).status).toBe(404);
    expect((await call('POST', `${BASE}/${g.id}/presence`, { state: 'dancing' })).status).toBe(422);
    const stranger = await staffToken(t, 'presence-stranger', ['test.gadget_tags']);
    expect((await call('POST', `${BASE}/${g.id}/presence`, {}, { token: stranger })).status).toBe(403);
  });
});
