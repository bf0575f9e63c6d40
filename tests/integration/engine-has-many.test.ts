import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubFor, type StampedEvent } from '../../server/events/hub.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp, staffToken } from '../fixtures/engine-app.ts';

// Inline has-many: a gadget's `parts` (tests/fixtures/gadgets.ts, `inline: true`) are written with the gadget
// through its own create and update calls, over HTTP against a real database.
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;
let sku = 0;

interface Part {
  id: string;
  gadget_id: string;
  created_at: string;
  name: string;
  quantity: number;
  code: string | null;
}

const send = (method: 'POST' | 'PATCH', url: string, payload: unknown, token = admin, lang = 'en') =>
  t.request({ method, url, payload: payload as object, token, headers: { 'accept-language': lang } });
const get = (url: string) => t.request({ url, token: admin });

/** A new gadget (with the given extra fields) through the API; returns the response. */
const createGadget = (extra: Record<string, unknown> = {}, token = admin, lang = 'en') => {
  sku += 1;
  return send('POST', BASE, { name: `Gadget ${sku}`, sku: `HM-${sku}`, price: 1, ...extra }, token, lang);
};

/** The parts stored for a gadget, straight from the table. */
async function storedParts(gadgetId: string): Promise<Omit<Part, 'gadget_id' | 'created_at'>[]> {
  const { rows } = await t.db.query<Part>(
    'SELECT id, name, quantity, code FROM gadget_parts WHERE gadget_id = $1 ORDER BY id',
    [gadgetId],
  );
  return rows.map((r) => ({ id: String(r.id), name: r.name, quantity: r.quantity, code: r.code }));
}

async function auditRows(subjectType: string, ids: string[]) {
  const { rows } = await t.db.query<{ action: string; subject_id: string; changes: Record<string, unknown> }>(
    `SELECT action, subject_id, changes FROM activity_logs
      WHERE subject_type = $1 AND subject_id = ANY($2::text[]) ORDER BY id`,
    [subjectType, ids],
  );
  return rows;
}

async function gadgetRow(id: string) {
  const { rows } = await t.db.query<{ name: string; price: number; updated_at: Date }>(
    'SELECT name, price, updated_at FROM gadgets WHERE id = $1',
    [id],
  );
  return rows[0];
}

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('create with children', () => {
  it('creates the gadget and every part in one call, and answers both', async () => {
    const res = await createGadget({
      parts: [{ name: 'Screen', quantity: 2 }, { name: 'Battery' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const gadget = res.json().data;
    expect(gadget.parts).toEqual([
      expect.objectContaining({ name: 'Screen', quantity: 2, gadget_id: gadget.id }),
      expect.objectContaining({ name: 'Battery', quantity: 1, gadget_id: gadget.id }),
    ]);
    expect(await storedParts(gadget.id)).toEqual([
      { id: gadget.parts[0].id, name: 'Screen', quantity: 2, code: null },
      { id: gadget.parts[1].id, name: 'Battery', quantity: 1, code: null },
    ]);
    const read = await get(`${BASE}/${gadget.id}?include=parts`);
    expect(read.json().data.parts.map((p: Part) => p.name)).toEqual(['Screen', 'Battery']);
  });

  it('writes an audit row per child (child resource, the engine format) next to the parent row', async () => {
    const res = await createGadget({ parts: [{ name: 'Lens', code: 'L-1' }] });
    const gadget = res.json().data;
    const partId = gadget.parts[0].id;
    expect(await auditRows('gadgets', [gadget.id])).toEqual([
      expect.objectContaining({ action: 'gadgets.create' }),
    ]);
    const rows = await auditRows('gadget_parts', [partId]);
    expect(rows).toEqual([
      {
        action: 'gadget_parts.create',
        subject_id: partId,
        changes: {
          gadget_id: [null, gadget.id],
          name: [null, 'Lens'],
          quantity: [null, 1],
          code: [null, 'L-1'],
        },
      },
    ]);
  });

  it('publishes a live record event for each child write', async () => {
    const seen: StampedEvent[] = [];
    const hub = hubFor(t.db);
    await hub.start();
    const stop = hub.subscribe((event) => seen.push(event));
    try {
      const gadget = (await createGadget({ parts: [{ name: 'Fan' }] })).json().data;
      const partId = gadget.parts[0].id;
      const partEvent = (e: StampedEvent) =>
        e.type === 'record' && (e.data as { resource: string }).resource === 'gadget_parts';
      await expect.poll(() => seen.filter(partEvent).length, { timeout: 5000 }).toBe(1);
      expect(seen.find(partEvent)).toMatchObject({
        permission: 'test.gadget_parts',
        data: { resource: 'gadget_parts', id: partId, action: 'create' },
      });
      expect(seen).toContainEqual(
        expect.objectContaining({ data: expect.objectContaining({ resource: 'gadgets', id: gadget.id }) }),
      );
    } finally {
      stop();
    }
  });

  it('422 for an id on create (a new gadget has no parts yet), writing nothing', async () => {
    const before = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM gadgets');
    const res = await createGadget({ parts: [{ name: 'Ok' }, { id: '1', name: 'Stolen' }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'parts.1.id': ['Not an item of this record'] });
    const after = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM gadgets');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('needs only the parent permission: .create writes the parts too', async () => {
    const creator = await staffToken(t, 'part-creator', ['test.gadgets.create']);
    const res = await createGadget({ parts: [{ name: 'Knob' }] }, creator);
    expect(res.statusCode, res.body).toBe(201);
    expect(await storedParts(res.json().data.id)).toEqual([expect.objectContaining({ name: 'Knob' })]);
    // The answer embeds the parts only for a caller who may read them (issue 12: no side doors).
    expect(res.json().data.parts).toBeUndefined();
    const reader = await staffToken(t, 'part-creator-reader', ['test.gadgets.create', 'test.gadget_parts']);
    const seen = await createGadget({ parts: [{ name: 'Dial' }] }, reader);
    expect(seen.statusCode, seen.body).toBe(201);
    expect(seen.json().data.parts).toEqual([expect.objectContaining({ name: 'Dial' })]);
  });
});

describe('validation of child items', () => {
  it('422 naming parts.N.field with the localized messages, and nothing written', async () => {
    const count = async () =>
      Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM gadget_parts')).rows[0]!.n);
    const partsBefore = await count();
    const res = await createGadget({
      parts: [{ name: 'Fine' }, { name: 'Also fine' }, { name: '', quantity: -1 }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'parts.2.name': ['Cannot be empty'],
      'parts.2.quantity': ['Must be at least 0'],
    });
    const zh = await createGadget({ parts: [{ name: '' }] }, admin, 'zh-CN');
    expect(zh.json().errors).toEqual({ 'parts.0.name': ['不能为空'] });
    expect(await count()).toBe(partsBefore);
    expect((await get(`${BASE}?search=sku:HM-${sku}`)).json().data.data).toEqual([]);
  });

  it('rejects unknown, read-only and foreign-key fields in an item (strict)', async () => {
    const res = await createGadget({ parts: [{ name: 'X', colour: 'red', gadget_id: '1', quantity: '2' }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      'parts.0.colour': ['This field is not allowed'],
      'parts.0.gadget_id': ['This field is not allowed'],
      'parts.0.quantity': ['Must be a number'],
    });
  });

  it('reports parent and child errors together', async () => {
    const res = await send('POST', BASE, { sku: 'HM-BAD', price: 1, parts: [{}] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ name: ['Cannot be empty'], 'parts.0.name': ['Cannot be empty'] });
  });

  it('caps the items of one list (422 on the list)', async () => {
    const parts = Array.from({ length: 1001 }, (_, i) => ({ name: `P${i}` }));
    const res = await createGadget({ parts });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ parts: ['At most 1000 items'] });
  });

  it('409 naming parts.N.code for a taken unique value (in the table or earlier in the list)', async () => {
    await createGadget({ parts: [{ name: 'Chip', code: 'TAKEN' }] });
    const res = await createGadget({ parts: [{ name: 'A' }, { name: 'B', code: 'TAKEN' }] });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toEqual({ 'parts.1.code': ['This value is already taken'] });
    expect(res.json().message).toBe('Parts item 2: Code is already taken');
    const twice = await createGadget({
      parts: [
        { name: 'A', code: 'NEW-1' },
        { name: 'B', code: 'NEW-1' },
      ],
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().errors).toEqual({ 'parts.1.code': ['This value is already taken'] });
    expect((await get(`${BASE}?search=sku:HM-${sku}`)).json().data.data).toEqual([]);
    const { rows } = await t.db.query("SELECT 1 FROM gadget_parts WHERE code = 'NEW-1'");
    expect(rows).toEqual([]);
  });
});

describe('update', () => {
  it('replaces the set: updates parts with an id, creates new ones, deletes the missing', async () => {
    const gadget = (
      await createGadget({ parts: [{ name: 'Keep' }, { name: 'Change' }, { name: 'Drop' }] })
    ).json().data;
    const [keep, change, drop] = gadget.parts as Part[];
    const res = await send('PATCH', `${BASE}/${gadget.id}`, {
      price: 5,
      parts: [
        // sent back as a form does (timestamps are ignored); unchanged, so not written
        { id: keep!.id, name: 'Keep', quantity: 1, created_at: keep!.created_at },
        { id: change!.id, quantity: 7 },
        { name: 'New', code: 'N-1' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.price).toBe(5);
    const newId = data.parts[2].id;
    expect(await storedParts(gadget.id)).toEqual([
      { id: keep!.id, name: 'Keep', quantity: 1, code: null },
      { id: change!.id, name: 'Change', quantity: 7, code: null },
      { id: newId, name: 'New', quantity: 1, code: 'N-1' },
    ]);
    expect(data.parts.map((p: Part) => p.id)).toEqual([keep!.id, change!.id, newId]);

    const rows = await auditRows('gadget_parts', [keep!.id, change!.id, drop!.id, newId]);
    expect(rows.slice(0, 3).map((r) => r.action)).toEqual(Array(3).fill('gadget_parts.create'));
    expect(rows.slice(3)).toEqual([
      {
        action: 'gadget_parts.delete',
        subject_id: drop!.id,
        changes: expect.objectContaining({ name: ['Drop', null], gadget_id: [gadget.id, null] }),
      },
      {
        action: 'gadget_parts.update',
        subject_id: change!.id,
        changes: { quantity: [1, 7], version: [1, 2] },
      },
      {
        action: 'gadget_parts.create',
        subject_id: newId,
        changes: expect.objectContaining({ name: [null, 'New'], code: [null, 'N-1'] }),
      },
    ]);
  });

  it('an absent key leaves the children untouched; an empty list deletes them all', async () => {
    const gadget = (await createGadget({ parts: [{ name: 'Stay' }] })).json().data;
    const res = await send('PATCH', `${BASE}/${gadget.id}`, { name: 'Renamed' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.parts).toEqual([expect.objectContaining({ name: 'Stay' })]);
    expect(await storedParts(gadget.id)).toEqual([
      { id: gadget.parts[0].id, name: 'Stay', quantity: 1, code: null },
    ]);
    expect(await auditRows('gadget_parts', [gadget.parts[0].id])).toHaveLength(1);

    const cleared = await send('PATCH', `${BASE}/${gadget.id}`, { parts: [] });
    expect(cleared.json().data.parts).toEqual([]);
    expect(await storedParts(gadget.id)).toEqual([]);
  });

  it("422 naming parts.N.id for another gadget's part, and nothing changes", async () => {
    const mine = (await createGadget({ parts: [{ name: 'Mine' }] })).json().data;
    const other = (await createGadget({ parts: [{ name: 'Theirs' }] })).json().data;
    const before = await gadgetRow(mine.id);
    const res = await send('PATCH', `${BASE}/${mine.id}`, {
      name: 'Should not stick',
      parts: [{ name: 'Extra' }, { id: other.parts[0].id, name: 'Hijacked' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'parts.1.id': ['Not an item of this record'] });
    expect(await gadgetRow(mine.id)).toEqual(before);
    expect(await storedParts(mine.id)).toEqual([
      { id: mine.parts[0].id, name: 'Mine', quantity: 1, code: null },
    ]);
    expect(await storedParts(other.id)).toEqual([
      { id: other.parts[0].id, name: 'Theirs', quantity: 1, code: null },
    ]);
    const missing = await send('PATCH', `${BASE}/${mine.id}`, {
      parts: [{ id: '999999999', name: 'Ghost' }],
    });
    expect(missing.json().errors).toEqual({ 'parts.0.id': ['Not an item of this record'] });
    const twice = await send('PATCH', `${BASE}/${mine.id}`, {
      parts: [{ id: mine.parts[0].id }, { id: mine.parts[0].id }],
    });
    expect(twice.json().errors).toEqual({ 'parts.1.id': ['This item is listed more than once'] });
  });

  it('a bad child field: 422 parts.N.field, the parent and the children unchanged', async () => {
    const gadget = (await createGadget({ parts: [{ name: 'One' }, { name: 'Two' }] })).json().data;
    const before = await gadgetRow(gadget.id);
    const res = await send('PATCH', `${BASE}/${gadget.id}`, {
      price: 99,
      parts: [{ name: 'Three' }, { id: gadget.parts[1].id, name: '' }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'parts.1.name': ['Cannot be empty'] });
    expect(await gadgetRow(gadget.id)).toEqual(before);
    expect((await storedParts(gadget.id)).map((p) => p.name)).toEqual(['One', 'Two']);
    expect(await auditRows('gadgets', [gadget.id])).toHaveLength(1);
  });

  it('a failing child write rolls back the parent and the earlier children (409 parts.N.code)', async () => {
    await createGadget({ parts: [{ name: 'Owner', code: 'OWNED' }] });
    const gadget = (await createGadget({ parts: [{ name: 'Old' }] })).json().data;
    const before = await gadgetRow(gadget.id);
    const res = await send('PATCH', `${BASE}/${gadget.id}`, {
      price: 42,
      parts: [{ name: 'Fresh' }, { id: gadget.parts[0].id, code: 'OWNED' }],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toEqual({ 'parts.1.code': ['This value is already taken'] });
    expect(await gadgetRow(gadget.id)).toEqual(before);
    expect(await storedParts(gadget.id)).toEqual([
      { id: gadget.parts[0].id, name: 'Old', quantity: 1, code: null },
    ]);
    expect(await auditRows('gadget_parts', [gadget.parts[0].id])).toHaveLength(1);
  });

  it('needs the parent .update permission, which is enough for the parts', async () => {
    const gadget = (await createGadget({ parts: [{ name: 'Bolt' }] })).json().data;
    const reader = await staffToken(t, 'part-reader', ['test.gadgets', 'test.gadget_parts.update']);
    const denied = await send('PATCH', `${BASE}/${gadget.id}`, { parts: [] }, reader);
    expect(denied.statusCode).toBe(403);
    const updater = await staffToken(t, 'part-updater', ['test.gadgets.update']);
    const res = await send('PATCH', `${BASE}/${gadget.id}`, { parts: [{ name: 'Nut' }] }, updater);
    expect(res.statusCode, res.body).toBe(200);
    expect((await storedParts(gadget.id)).map((p) => p.name)).toEqual(['Nut']);
  });
});

describe('OpenAPI', () => {
  it('documents the parts list in the create and update bodies', async () => {
    const doc = (await t.request({ url: '/api/docs' })).json();
    type Schema = { $ref?: string; properties: Record<string, Record<string, unknown>> };
    type Body = { content: Record<string, { schema: Schema }> };
    // The bodies are the resource's named schemas (issue 33): `{ $ref: '#/components/schemas/...' }`.
    const bodyOf = (path: string, method: string) => {
      const body = doc.paths[path][method].requestBody as Body;
      const ref = Object.values(body.content)[0]!.schema.$ref!;
      return (doc.components.schemas[ref.split('/').pop()!] as Schema).properties;
    };
    for (const [path, method] of [
      [BASE, 'post'],
      [`${BASE}/{id}`, 'patch'],
    ] as const) {
      const parts = bodyOf(path, method).parts!;
      expect(parts).toMatchObject({ type: 'array', maxItems: 1000 });
      const item = parts.items as { properties: Record<string, unknown>; additionalProperties?: boolean };
      expect(Object.keys(item.properties).sort()).toEqual(['code', 'id', 'name', 'quantity']);
      expect(item.additionalProperties).toBe(false);
    }
  });
});
