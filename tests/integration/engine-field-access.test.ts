import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { multipartFile } from '../helpers/upload.ts';
import { createUser, type TestUser } from '../helpers/users.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { createTestApp } from '../helpers/app.ts';
import { createGadgetLabels, FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';

// Field access on roles (issue 30, item 4; contract Amendments 2026-11-26, "Who sees which rows and fields"),
// each path once over HTTP against a real database. `one` holds a role that hides gadgets.email and
// gadget_parts.code and makes gadgets.stock read-only; `both` also holds a second role that grants gadgets
// without naming those fields, so for it they are writable again (the most permissive role wins), except
// gadget_parts.code, which the second role does not grant.
const BASE = '/api/v1/test/gadgets';
let t: TestApp;
let admin: string;
let one: TestUser;
let both: TestUser;
let sku = 0;
let gadgetId: string;

const ROLE_A = {
  menu_ids: [
    'test.gadgets',
    'test.gadgets.create',
    'test.gadgets.update',
    'test.gadgets.export',
    'test.gadgets.import',
    'test.gadget_parts',
    'test.gadget_makers',
    'system.users.staff',
    'system.users.staff.update',
    'system.users.activities',
  ],
};
const ACCESS_A = {
  'gadgets.email': 'hidden',
  'gadgets.stock': 'read',
  'gadget_parts.code': 'hidden',
  'staff.phone': 'hidden',
} as const;

const req = (
  token: string,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: Record<string, unknown>,
) => t.request({ method, url, token, ...(payload ? { payload } : {}), headers: { 'accept-language': 'en' } });

async function role(menuIds: string[], fieldAccess: Record<string, string>): Promise<string> {
  const res = await req(admin, 'POST', '/api/v1/user/roles', {
    name: `role ${crypto.randomUUID()}`,
    permissions: { menu_ids: menuIds },
    field_access: fieldAccess,
  });
  expect(res.statusCode, res.body).toBe(201);
  return String(res.json().data.id);
}

async function holder(roleIds: string[]): Promise<TestUser> {
  const user = await createUser(t.db, { staff: {} });
  for (const id of roleIds)
    await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [user.staffId, id]);
  return user;
}

/** The records of a list answer (`data: { data, meta }`). */
const rowsOf = (res: { json(): unknown }) =>
  (res.json() as { data: { data: Record<string, unknown>[] } }).data.data;

const newGadget = (extra: Record<string, unknown> = {}) => {
  sku += 1;
  return { name: `Gadget ${sku}`, sku: `FA-${sku}`, price: 1, ...extra };
};

async function storedGadget(id: string) {
  const { rows } = await t.db.query<{ email: string | null; stock: number; name: string }>(
    'SELECT email, stock, name FROM gadgets WHERE id = $1',
    [id],
  );
  return rows[0];
}

beforeAll(async () => {
  // The product's resources and the fixture's, each its own resources module (as resource-properties does):
  // role keys name fields of both.
  createGadgetLabels();
  const fixtures = {
    ...createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS }),
    name: 'fixture-resources',
  };
  t = await createTestApp({}, { extraModules: [fixtures] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  admin = await t.adminToken();
  const a = await role(ROLE_A.menu_ids, ACCESS_A);
  const b = await role(['test.gadgets', 'test.gadgets.create', 'test.gadgets.update'], {});
  one = await holder([a]);
  both = await holder([a, b]);
  const made = await req(
    admin,
    'POST',
    BASE,
    newGadget({ email: 'hidden-token@example.com', stock: 7, parts: [{ name: 'Bolt', code: 'C-1' }] }),
  );
  expect(made.statusCode, made.body).toBe(201);
  gadgetId = String(made.json().data.id);
});

afterAll(async () => {
  await t?.close();
});

describe('roles: field_access', () => {
  it('refuses keys naming no field, id and write-only fields, naming each key', async () => {
    const res = await req(admin, 'POST', '/api/v1/user/roles', {
      name: 'bad field access',
      field_access: {
        'gadgets.nope': 'hidden',
        'gadgets.id': 'read',
        'nothing.name': 'hidden',
        'gadgets.secret': 'hidden',
        'gadgets.name': 'read',
      },
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual([
      'field_access.gadgets.id',
      'field_access.gadgets.nope',
      'field_access.gadgets.secret',
      'field_access.nothing.name',
    ]);
    expect(res.json().errors['field_access.gadgets.nope']).toEqual(['No such field']);
  });

  it('refuses a value other than hidden or read', async () => {
    const res = await req(admin, 'POST', '/api/v1/user/roles', {
      name: 'bad value',
      field_access: { 'gadgets.email': 'write' },
    });
    expect(res.statusCode, res.body).toBe(422);
  });

  it('answers the stored field_access, {} for a role saved without it', async () => {
    const res = await req(admin, 'GET', '/api/v1/user/roles?size=100');
    const roles = rowsOf(res);
    expect(roles.some((r) => isDeepStrictEqual(r.field_access, ACCESS_A))).toBe(true);
    expect(roles.every((r) => r.field_access && typeof r.field_access === 'object')).toBe(true);
  });
});

describe('GET v1/user/info', () => {
  it("answers the caller's effective restricted fields: the most permissive over its granting roles", async () => {
    const info = async (token: string) => {
      const res = await req(token, 'GET', '/api/v1/user/info');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { field_access: Record<string, string>; data_scope?: unknown };
    };
    expect((await info(one.token)).field_access).toEqual(ACCESS_A);
    expect((await info(both.token)).field_access).toEqual({
      'gadget_parts.code': 'hidden',
      'staff.phone': 'hidden',
    });
    expect((await info(admin)).field_access).toEqual({});
    expect(await info(one.token)).not.toHaveProperty('data_scope');
  });
});

describe('answers leave hidden fields out', () => {
  it('list, read and include', async () => {
    const list = await req(one.token, 'GET', `${BASE}?include=parts,maker`);
    expect(list.statusCode, list.body).toBe(200);
    const row = rowsOf(list).find((r) => r.id === gadgetId)!;
    expect(row).not.toHaveProperty('email');
    expect(row.stock).toBe(7);
    expect(row.parts).toEqual([expect.not.objectContaining({ code: expect.anything() })]);
    expect((row.parts as Record<string, unknown>[])[0]).not.toHaveProperty('code');

    const read = await req(one.token, 'GET', `${BASE}/${gadgetId}?include=parts`);
    expect(read.json().data).not.toHaveProperty('email');
    expect(read.json().data.parts[0]).not.toHaveProperty('code');
    expect(read.json().data.parts[0].name).toBe('Bolt');

    const full = await req(both.token, 'GET', `${BASE}/${gadgetId}?include=parts`);
    expect(full.json().data.email).toBe('hidden-token@example.com');
    expect(full.json().data.parts[0]).not.toHaveProperty('code');
  });

  it('the history of a parent shows its inline children without their hidden fields', async () => {
    const made = await req(admin, 'POST', BASE, newGadget({ parts: [{ name: 'Nut', code: 'SECRET-1' }] }));
    expect(made.statusCode, made.body).toBe(201);
    const id = String(made.json().data.id);
    const part =
      made.json().data.parts?.[0]?.id ??
      (await req(admin, 'GET', `${BASE}/${id}?include=parts`)).json().data.parts[0].id;
    const changed = await req(admin, 'PATCH', `${BASE}/${id}`, {
      parts: [{ id: String(part), name: 'Nut', code: 'SECRET-2' }],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const mine = await req(one.token, 'GET', `${BASE}/${id}/history`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.body).not.toContain('SECRET-');
    const admins = await req(admin, 'GET', `${BASE}/${id}/history`);
    expect(admins.body).toContain('SECRET-2');
  });

  it('create and update answers', async () => {
    const created = await req(one.token, 'POST', BASE, newGadget());
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().data).not.toHaveProperty('email');
    expect(created.json().data.stock).toBe(0);
    const updated = await req(one.token, 'PATCH', `${BASE}/${created.json().data.id}`, { name: 'Renamed' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).not.toHaveProperty('email');
    expect(updated.json().data.name).toBe('Renamed');
  });
});

describe('hidden fields cannot be searched or sorted', () => {
  it('is the same 422 as an unknown field', async () => {
    const hidden = await req(one.token, 'GET', `${BASE}?search=email:x&searchFields=email:like`);
    const unknown = await req(one.token, 'GET', `${BASE}?search=nofield:x`);
    expect(hidden.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(hidden.json().message).toBe(unknown.json().message.replace('nofield', 'email'));
    expect((await req(one.token, 'GET', `${BASE}?orderBy=email`)).statusCode).toBe(422);
    expect((await req(one.token, 'GET', `${BASE}?include=parts&search=email:x`)).statusCode).toBe(422);
    // A read-only field is still searched and sorted.
    expect((await req(one.token, 'GET', `${BASE}?search=stock:7`)).statusCode).toBe(200);
    expect((await req(one.token, 'GET', `${BASE}?orderBy=stock`)).statusCode).toBe(200);
    expect(
      rowsOf(await req(both.token, 'GET', `${BASE}?search=email:hidden-token&searchFields=email:like`)),
    ).toHaveLength(1);
  });

  it('q and a bare search do not look into hidden fields', async () => {
    expect(rowsOf(await req(one.token, 'GET', `${BASE}?q=hidden-token`))).toEqual([]);
    expect(rowsOf(await req(both.token, 'GET', `${BASE}?q=hidden-token`))).toHaveLength(1);
    expect(rowsOf(await req(one.token, 'GET', `${BASE}?search=hidden-token`))).toEqual([]);
  });
});

describe('writing a hidden or read-only field is a 403 naming it', () => {
  it('create and update', async () => {
    const hidden = await req(one.token, 'POST', BASE, newGadget({ email: 'x@example.com' }));
    expect(hidden.statusCode, hidden.body).toBe(403);
    expect(Object.keys(hidden.json().errors)).toEqual(['email']);
    const readOnly = await req(one.token, 'PATCH', `${BASE}/${gadgetId}`, { stock: 9, name: 'x' });
    expect(readOnly.statusCode, readOnly.body).toBe(403);
    expect(Object.keys(readOnly.json().errors)).toEqual(['stock']);
    expect(await storedGadget(gadgetId)).toMatchObject({ stock: 7, email: 'hidden-token@example.com' });

    const restored = await req(both.token, 'PATCH', `${BASE}/${gadgetId}`, { stock: 8 });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().data.stock).toBe(8);
  });

  it('bulk update', async () => {
    const res = await req(one.token, 'PATCH', `${BASE}?ids=${gadgetId}`, { stock: 1 });
    expect(res.statusCode, res.body).toBe(403);
    expect(Object.keys(res.json().errors)).toEqual(['stock']);
    expect((await storedGadget(gadgetId))!.stock).toBe(8);
  });

  it('inline children', async () => {
    const res = await req(both.token, 'PATCH', `${BASE}/${gadgetId}`, {
      parts: [{ name: 'Nut', code: 'C-2' }],
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(Object.keys(res.json().errors)).toEqual(['parts.0.code']);
    const { rows } = await t.db.query('SELECT name FROM gadget_parts WHERE gadget_id = $1', [gadgetId]);
    expect(rows).toEqual([{ name: 'Bolt' }]);
  });
});

describe('CSV', () => {
  it('export leaves hidden columns out; naming one is an unknown field', async () => {
    const res = await req(one.token, 'GET', `${BASE}/export?fields=`);
    expect(res.statusCode, res.body).toBe(200);
    const header = res.body.split('\n')[0]!;
    expect(header).not.toContain('Email');
    expect(header).toContain('stock');
    expect(res.body).not.toContain('hidden-token');
    const named = await req(one.token, 'GET', `${BASE}/export?fields=id,email`);
    expect(named.statusCode, named.body).toBe(422);
    const all = await req(both.token, 'GET', `${BASE}/export`);
    expect(all.body).toContain('hidden-token');
  });

  it('an import carrying a hidden or read-only column is refused before anything is written', async () => {
    for (const [column, dryRun] of [
      ['email', '1'],
      ['stock', '0'],
    ] as const) {
      const csv = `name,sku,price,${column}\nImported,IMP-${column},1,${column === 'email' ? 'a@example.com' : '3'}\n`;
      const res = await t.request({
        method: 'POST',
        url: `${BASE}/import?dry_run=${dryRun}`,
        token: one.token,
        ...multipartFile('gadgets.csv', Buffer.from(csv), 'text/csv'),
      });
      expect(res.statusCode, res.body).toBe(403);
      expect(Object.keys(res.json().errors)).toEqual([column]);
    }
    const { rows } = await t.db.query("SELECT id FROM gadgets WHERE name = 'Imported'");
    expect(rows).toEqual([]);
  });
});

describe('activity log', () => {
  it("leaves a hidden field's changes out for that caller", async () => {
    const staff = await req(admin, 'POST', '/api/v1/user/staff', {
      name: 'Phone Owner',
      phone: '13800000000',
    });
    expect(staff.statusCode, staff.body).toBe(201);
    const id = String(staff.json().data.id);
    const log = await req(one.token, 'GET', `/api/v1/user/logs?search=subject_id:${id}`);
    expect(log.statusCode, log.body).toBe(200);
    const rows = rowsOf(log) as { changes: Record<string, unknown>; changes_withheld: string[] }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.changes.name).toEqual([null, 'Phone Owner']);
    expect(rows[0]!.changes).not.toHaveProperty('phone');
    expect(rows[0]!.changes_withheld).not.toContain('phone');
    const read = await req(one.token, 'GET', `/api/v1/user/staff/${id}`);
    expect(read.json().data).not.toHaveProperty('phone');
    const adminLog = await req(admin, 'GET', `/api/v1/user/logs?search=subject_id:${id}`);
    expect((rowsOf(adminLog)[0]!.changes as Record<string, unknown>).phone).toEqual([null, '13800000000']);
  });
});
