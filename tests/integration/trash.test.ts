import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGadgetApp } from '../fixtures/engine-app.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { purgeTrash } from '../../server/engine/trash-purge.ts';
import { multipartFile } from '../helpers/upload.ts';

/**
 * The trash (issue 36, part T; contract "Nothing lost"): a delete of a soft-delete resource moves the record
 * to the trash, where it leaves lists, reads, includes, exports, searches and reference options, keeps its
 * unique values (a 409 that says so, with its id), and comes back byte for byte (fields, links, inline
 * children) or goes for good; the holders' 409 of roles and departments (`errors.holders`, `?detach=1`); the
 * partial indexes over the live rows serve the lists (EXPLAIN). Runs on PGlite and PostgreSQL.
 */
const GADGETS = '/api/v1/test/gadgets';
const TAGS = '/api/v1/test/gadget-tags';
const MAKERS = '/api/v1/test/gadget-makers';
const SHIPMENTS = '/api/v1/test/gadget-shipments';
const ROLES = '/api/v1/user/roles';
const STAFF = '/api/v1/user/staff';
const DEPARTMENTS = '/api/v1/user/departments';

let t: TestApp;
let admin: string;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, payload?: object) =>
  t.request({
    method,
    url,
    token: admin,
    headers: { 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });
const dataOf = <T = Record<string, unknown>>(res: { json(): unknown }) => (res.json() as { data: T }).data;

let serial = 0;
async function gadget(extra: object = {}): Promise<Record<string, unknown>> {
  serial += 1;
  const res = await call('POST', `${GADGETS}?include=parts`, {
    name: `Trash ${serial}`,
    sku: `TRASH-${serial}`,
    price: 3,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return dataOf(res);
}

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
});
afterAll(async () => {
  await t.close();
});

describe('trash then restore', () => {
  it('gives the record back byte for byte: every field, its links and its inline children', async () => {
    const tag = dataOf<{ id: string }>(await call('POST', TAGS, { name: `tag-${Date.now()}` }));
    const maker = dataOf<{ id: string }>(await call('POST', MAKERS, { name: 'Maker' }));
    const before = await gadget({
      description: 'with everything',
      tag_ids: [tag.id],
      maker_id: maker.id,
      specs: { weight: 3 },
      parts: [{ name: 'screw', quantity: 4 }, { name: 'nut' }],
    });
    const id = String(before.id);
    const read = dataOf(await call('GET', `${GADGETS}/${id}?include=parts,tags,maker`));

    expect((await call('DELETE', `${GADGETS}/${id}`)).statusCode).toBe(200);
    expect((await call('GET', `${GADGETS}/${id}`)).statusCode).toBe(404);
    const trash = dataOf<{ data: Record<string, unknown>[] }>(await call('GET', `${GADGETS}/trash`));
    const listed = trash.data.find((r) => r.id === id);
    expect(listed).toMatchObject({ id, name: before.name });
    expect(typeof listed!.deleted_at).toBe('string');
    // The children went with it.
    const parts = (before.parts as { id: string }[]).map((p) => p.id);
    for (const part of parts)
      expect((await call('GET', `/api/v1/test/gadget-parts/${part}`)).statusCode).toBe(404);

    const restored = await call('POST', `${GADGETS}/trash/${id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(dataOf(await call('GET', `${GADGETS}/${id}?include=parts,tags,maker`))).toEqual(read);
    const { rows } = await t.db.query<{ action: string }>(
      `SELECT action FROM activity_logs WHERE subject_type = 'gadgets' AND subject_id = $1 ORDER BY id`,
      [id],
    );
    expect(rows.map((r) => r.action)).toEqual(['gadgets.create', 'gadgets.delete', 'gadgets.restore']);
  });

  it('leaves a trashed record out of lists, includes, links, exports, searches and reference options', async () => {
    const tag = dataOf<{ id: string; name: string }>(
      await call('POST', TAGS, { name: `gone-${Date.now()}` }),
    );
    const holder = await gadget({ tag_ids: [tag.id] });
    const gone = await gadget({ name: 'Vanishing gadget' });
    expect((await call('DELETE', `${GADGETS}/${String(gone.id)}`)).statusCode).toBe(200);
    expect((await call('DELETE', `${TAGS}/${tag.id}`)).statusCode).toBe(200);

    const list = dataOf<{ data: { id: string }[] }>(await call('GET', `${GADGETS}?size=1000`));
    expect(list.data.map((r) => r.id)).not.toContain(gone.id);
    const searched = dataOf<{ data: unknown[] }>(
      await call('GET', `${GADGETS}?search=name:Vanishing&searchFields=name:like`),
    );
    expect(searched.data).toEqual([]);
    const options = dataOf<{ data: unknown[] }>(
      await call('GET', `${GADGETS}?search=id:${String(gone.id)}&searchFields=id:in`),
    );
    expect(options.data).toEqual([]);
    const withTags = dataOf<Record<string, unknown>>(
      await call('GET', `${GADGETS}/${String(holder.id)}?include=tags`),
    );
    expect(withTags.tag_ids).toEqual([]);
    expect(withTags.tags).toEqual([]);
    const csv = await call('GET', `${GADGETS}/export`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain('Vanishing gadget');
    // The tag comes back with its link.
    expect((await call('POST', `${TAGS}/trash/${tag.id}/restore`)).statusCode).toBe(200);
    expect(
      dataOf<{ tag_ids: string[] }>(await call('GET', `${GADGETS}/${String(holder.id)}`)).tag_ids,
    ).toEqual([tag.id]);
  });

  it('keeps unique values held: a create that collides is a 409 saying the record is in the trash', async () => {
    const held = await gadget({ sku: 'HELD-SKU' });
    expect((await call('DELETE', `${GADGETS}/${String(held.id)}`)).statusCode).toBe(200);
    const res = await call('POST', GADGETS, { name: 'Again', sku: 'HELD-SKU', price: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 409, data: null, errors: { trashed_id: [held.id] } });
    expect(res.json().message).toContain('trash');
    expect(res.json().errors.sku).toEqual(['Taken by a record in the trash']);
  });

  it('an import never writes into a trashed record: a row naming one says it is in the trash, nothing written', async () => {
    const held = await gadget({ sku: 'IMPORT-TRASHED' });
    expect((await call('DELETE', `${GADGETS}/${String(held.id)}`)).statusCode).toBe(200);
    const csv = `id,name,sku,price\r\n${String(held.id)},Revived,IMPORT-TRASHED,4\r\n`;
    for (const qs of ['', '?upsert=sku']) {
      const res = await t.request({
        method: 'POST',
        url: `${GADGETS}/import${qs}`,
        token: admin,
        ...multipartFile('gadgets.csv', Buffer.from(csv), 'text/csv'),
      });
      expect(res.statusCode, res.body).toBe(422);
      // Matched to no live record, the row is a new one whose SKU the trashed record still holds.
      expect(res.json().errors).toMatchObject({ 'rows.2.trashed_id': [held.id] });
      expect(res.json().errors['rows.2.sku']).toHaveLength(1);
    }
    const { rows } = await t.db.query<{ name: string; deleted_at: Date | null }>(
      'SELECT name, deleted_at FROM gadgets WHERE id = $1',
      [held.id],
    );
    expect(rows[0]).toMatchObject({ name: held.name });
    expect(rows[0]!.deleted_at).not.toBeNull();
    const live = await t.db.query(
      "SELECT 1 FROM gadgets WHERE sku = 'IMPORT-TRASHED' AND deleted_at IS NULL",
    );
    expect(live.rows).toHaveLength(0);
  });

  it('refuses a delete while live records still refer to it, and lets a purge go only when none do', async () => {
    const maker = dataOf<{ id: string }>(await call('POST', MAKERS, { name: 'Held maker' }));
    const item = await gadget();
    const shipment = await call('POST', SHIPMENTS, { gadget_id: item.id, maker_id: maker.id, quantity: 1 });
    expect(shipment.statusCode, shipment.body).toBe(201);
    const refused = await call('DELETE', `${MAKERS}/${maker.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors.holders).toBe(1);
    // Trash the holder: the maker may go to the trash, but its purge is refused by the trashed shipment.
    const shipmentId = dataOf<{ id: string }>(shipment).id;
    expect((await call('DELETE', `${SHIPMENTS}/${shipmentId}`)).statusCode).toBe(200);
    expect((await call('DELETE', `${MAKERS}/${maker.id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `${MAKERS}/trash/${maker.id}`)).statusCode).toBe(409);
    // A record referring to a trashed one comes back only after it.
    const refusedRestore = await call('POST', `${SHIPMENTS}/trash/${shipmentId}/restore`);
    expect(refusedRestore.statusCode).toBe(409);
    expect(refusedRestore.json().errors).toHaveProperty('maker_id');
    expect((await call('DELETE', `${SHIPMENTS}/trash/${shipmentId}`)).statusCode).toBe(200);
    expect((await call('DELETE', `${MAKERS}/trash/${maker.id}`)).statusCode).toBe(200);
    const { rows } = await t.db.query('SELECT 1 FROM gadget_makers WHERE id = $1', [maker.id]);
    expect(rows).toEqual([]);
    expect((await call('POST', `${MAKERS}/trash/${maker.id}/restore`)).statusCode).toBe(404);
  });

  it('answers 404 for a live record on the trash routes and for a trashed one on the live routes', async () => {
    const live = await gadget();
    expect((await call('POST', `${GADGETS}/trash/${String(live.id)}/restore`)).statusCode).toBe(404);
    expect((await call('DELETE', `${GADGETS}/trash/${String(live.id)}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${GADGETS}/${String(live.id)}`)).statusCode).toBe(200);
    expect((await call('DELETE', `${GADGETS}/${String(live.id)}`)).statusCode).toBe(404);
    expect((await call('PATCH', `${GADGETS}/${String(live.id)}`, { price: 9 })).statusCode).toBe(404);
  });
});

describe('the purge task', () => {
  it('deletes for good what stayed in the trash past trash_retention_days, leaving what a trashed record holds', async () => {
    const kept = await gadget();
    const old = await gadget();
    const maker = dataOf<{ id: string }>(await call('POST', MAKERS, { name: 'Old held maker' }));
    const shipment = dataOf<{ id: string }>(
      await call('POST', SHIPMENTS, { gadget_id: kept.id, maker_id: maker.id, quantity: 2 }),
    );
    for (const url of [
      `${GADGETS}/${String(old.id)}`,
      `${SHIPMENTS}/${shipment.id}`,
      `${MAKERS}/${maker.id}`,
    ])
      expect((await call('DELETE', url)).statusCode).toBe(200);
    const settings = await call('POST', '/api/v1/settings/basic', {
      upload_max_size: 10485760,
      activity_retention_days: 180,
      trash_retention_days: 2,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const exists = async (table: string, id: unknown) =>
      (await t.db.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).rows.length === 1;

    // One day on: nothing is old enough.
    const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
    expect(await purgeTrash(t.db, fixtureResources, { now: tomorrow })).toMatchObject({ gadgets: 0 });
    expect(await exists('gadgets', old.id)).toBe(true);

    // Three days on: the trashed gadget and shipment go; the maker the trashed shipment held goes once its
    // holder has gone (in the same run when the shipments come first, else in the next one).
    const later = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    const first = await purgeTrash(t.db, fixtureResources, { now: later });
    expect(first.gadgets).toBeGreaterThanOrEqual(1);
    await purgeTrash(t.db, fixtureResources, { now: later });
    expect(await exists('gadgets', old.id)).toBe(false);
    expect(await exists('gadget_shipments', shipment.id)).toBe(false);
    expect(await exists('gadget_makers', maker.id)).toBe(false);
    expect(await exists('gadgets', kept.id)).toBe(true);
  });
});

describe('holders of roles and departments', () => {
  // The product's own resources (the gadget app mounts only the fixture's).
  let gadgetApp: TestApp;
  let gadgetAdmin: string;
  beforeAll(async () => {
    [gadgetApp, gadgetAdmin] = [t, admin];
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(async () => {
    await t.close();
    [t, admin] = [gadgetApp, gadgetAdmin];
  });

  it('refuses to delete a role staff hold (errors.holders), and detaches it with ?detach=1, audited', async () => {
    const created = await call('POST', ROLES, { name: 'Held role', permissions: { menu_ids: [] } });
    expect(created.statusCode, created.body).toBe(201);
    const role = dataOf<{ id: string }>(created);
    const staffIds: string[] = [];
    for (const name of ['Ann', 'Bob']) {
      const res = await call('POST', STAFF, { name, role_ids: [role.id] });
      expect(res.statusCode, res.body).toBe(201);
      staffIds.push(dataOf<{ id: string }>(res).id);
    }
    const refused = await call('DELETE', `${ROLES}/${role.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors.holders).toBe(2);
    expect(refused.json().message).toContain('2 staff');
    for (const id of staffIds)
      expect(dataOf<{ role_ids: string[] }>(await call('GET', `${STAFF}/${id}`)).role_ids).toEqual([role.id]);

    expect((await call('DELETE', `${ROLES}/${role.id}?detach=1`)).statusCode).toBe(200);
    for (const id of staffIds)
      expect(dataOf<{ role_ids: string[] }>(await call('GET', `${STAFF}/${id}`)).role_ids).toEqual([]);
    const { rows } = await t.db.query<{ subject_id: string; changes: unknown }>(
      `SELECT subject_id::text AS subject_id, changes FROM activity_logs WHERE action = 'staff.update' AND subject_id::text = ANY($1::text[])`,
      [staffIds],
    );
    expect(rows.map((r) => r.subject_id).sort()).toEqual([...staffIds].sort());
    expect(rows.map((r) => (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes))).toEqual([
      { role_ids: [[role.id], []] },
      { role_ids: [[role.id], []] },
    ]);
  });

  it('refuses to delete a department used by staff or sub-departments, naming how many', async () => {
    const made = await call('POST', DEPARTMENTS, { name: 'Top' });
    expect(made.statusCode, made.body).toBe(201);
    const top = dataOf<{ id: string }>(made);
    await call('POST', DEPARTMENTS, { name: 'Child', parent_id: top.id });
    const member = await call('POST', STAFF, { name: 'Carol', department_id: top.id });
    expect(member.statusCode, member.body).toBe(201);
    const refused = await call('DELETE', `${DEPARTMENTS}/${top.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors.holders).toBe(2);
    expect(refused.json().message).toContain('2');
  });
});

describe('partial indexes over the live rows', () => {
  it('serve the list query (EXPLAIN names them)', async () => {
    await t.db.query(
      `INSERT INTO gadgets (name, sku, price, deleted_at)
       SELECT 'bulk ' || g, 'EXPLAIN-' || g, 1, CASE WHEN g % 10 = 0 THEN now() ELSE NULL END
         FROM generate_series(1, 3000) g`,
    );
    await t.db.query('ANALYZE gadgets');
    const plan = async (sql: string) => {
      const { rows } = await t.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };
    // The default order (id desc) and a sorted one, as the list builds them (scope.ts scopeList).
    expect(
      await plan(`SELECT id FROM gadgets WHERE "deleted_at" IS NULL ORDER BY "id" DESC LIMIT 15`),
    ).toContain('gadgets_live_idx');
    expect(
      await plan(`SELECT id FROM gadgets WHERE "deleted_at" IS NULL ORDER BY "name" ASC, "id" ASC LIMIT 15`),
    ).toContain('gadgets_name_sort');
    const list = await call('GET', `${GADGETS}?orderBy=name&sortedBy=asc&size=15`);
    expect(list.statusCode).toBe(200);
  });
});
