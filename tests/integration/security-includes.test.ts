import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';
import { createGadgetApp, staffToken } from '../fixtures/engine-app.ts';

// Issue 12, item 1 (contract Amendments, "Includes"): an include, a has-many list or an exported relation
// column needs the read permission of the resource it embeds; without it the call is a 403 whose `errors`
// name the include. Over HTTP against the real server and database.

describe('include= on the people resources', () => {
  let t: TestApp;
  let admin: string;
  let clerk: string;
  let viewer: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
    // May read staff, not user accounts, departments or roles: the reviewer's low-privilege staff member.
    clerk = (await createUser(t.db, { staff: { permissions: [PERMISSION.users, PERMISSION.usersStaff] } }))
      .token;
    viewer = (
      await createUser(t.db, {
        staff: {
          permissions: [
            PERMISSION.users,
            PERMISSION.usersStaff,
            PERMISSION.usersUsers,
            `${PERMISSION.usersStaff}.export`,
          ],
        },
      })
    ).token;
  });
  afterAll(() => t.close());

  it('refuses GET v1/user/staff?include=user to a caller who may not read user accounts, naming the include', async () => {
    const res = await t.request({ url: '/api/v1/user/staff?include=user', token: clerk });
    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body).toMatchObject({ code: 403, data: null });
    expect(Object.keys(body.errors)).toEqual(['user']);
    expect(res.body).not.toContain('last_login_at');
  });

  it('names every refused include and says so in the request language', async () => {
    const res = await t.request({
      url: '/api/v1/user/staff?include=department,roles',
      token: clerk,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(403);
    expect(Object.keys(res.json().errors).sort()).toEqual(['department', 'roles']);
    expect(res.json().message).toContain('department');
  });

  it('refuses the include on a single read too', async () => {
    const { rows } = await t.db.query<{ id: string }>('SELECT id FROM staff ORDER BY id LIMIT 1');
    const res = await t.request({ url: `/api/v1/user/staff/${rows[0]!.id}?include=user`, token: clerk });
    expect(res.statusCode).toBe(403);
    expect(Object.keys(res.json().errors)).toEqual(['user']);
  });

  it('embeds the include for a caller holding the target page, and for an administrator', async () => {
    const own = await t.request({ url: '/api/v1/user/staff?include=user', token: viewer });
    expect(own.statusCode, own.body).toBe(200);
    const res = await t.request({ url: '/api/v1/user/staff?include=user,department,roles', token: admin });
    expect(res.statusCode).toBe(200);
    const usernames = res
      .json()
      .data.data.map((s: { user: { username: string } | null }) => s.user?.username);
    expect(usernames).toContain('admin');
  });

  it('plain lists without include still work for the clerk', async () => {
    expect((await t.request({ url: '/api/v1/user/staff', token: clerk })).statusCode).toBe(200);
  });

  it('export fields= naming a relation the caller may not read is a 403 naming it', async () => {
    const res = await t.request({
      url: '/api/v1/user/staff/export?fields=name,department_id',
      token: viewer,
    });
    expect(res.statusCode).toBe(403);
    expect(Object.keys(res.json().errors)).toEqual(['department_id']);
  });

  it('the default export leaves out relation columns the caller may not read, keeps the readable ones', async () => {
    const res = await t.request({
      url: '/api/v1/user/staff/export',
      token: viewer,
      headers: { 'accept-language': 'en' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const header = res.body.replace(/^\uFEFF/, '').split('\n')[0]!;
    expect(header).toContain('Name');
    expect(header).not.toMatch(/Department|Roles/);
    const full = await t.request({
      url: '/api/v1/user/staff/export',
      token: admin,
      headers: { 'accept-language': 'en' },
    });
    expect(full.body.replace(/^\uFEFF/, '').split('\n')[0]).toMatch(/Department/);
  });
});

describe('include= and inline lists on the engine fixture', () => {
  let t: TestApp;
  let admin: string;
  let gadgetOnly: string;
  let gadgetId: string;

  beforeAll(async () => {
    t = await createGadgetApp();
    admin = await t.adminToken();
    gadgetOnly = await staffToken(t, 'gadget_clerk', [
      'test.gadgets',
      'test.gadgets.update',
      'test.gadgets.create',
    ]);
    const maker = await t.request({
      method: 'POST',
      url: '/api/v1/test/gadget-makers',
      payload: { name: 'Acme' },
      token: admin,
    });
    const gadget = await t.request({
      method: 'POST',
      url: '/api/v1/test/gadgets',
      payload: {
        name: 'Phone',
        sku: 'INC-1',
        price: 1,
        maker_id: maker.json().data.id,
        parts: [{ name: 'Screen', quantity: 1 }],
      },
      token: admin,
    });
    expect(gadget.statusCode, gadget.body).toBe(201);
    gadgetId = gadget.json().data.id;
  });
  afterAll(() => t.close());

  it.each([
    ['belongsTo', 'include=maker', ['maker']],
    ['manyToMany', 'include=tags', ['tags']],
    ['hasMany (the edit page include)', 'include=parts', ['parts']],
    ['several at once', 'include=maker,tags,parts', ['maker', 'parts', 'tags']],
  ])('%s needs the target read permission', async (_, qs, named) => {
    const list = await t.request({ url: `/api/v1/test/gadgets?${qs}`, token: gadgetOnly });
    expect(list.statusCode).toBe(403);
    expect(Object.keys(list.json().errors).sort()).toEqual(named);
    const one = await t.request({ url: `/api/v1/test/gadgets/${gadgetId}?${qs}`, token: gadgetOnly });
    expect(one.statusCode).toBe(403);
  });

  it('a write response leaves out inline lists the caller may not read', async () => {
    const res = await t.request({
      method: 'PATCH',
      url: `/api/v1/test/gadgets/${gadgetId}`,
      payload: { name: 'Phone 2' },
      token: gadgetOnly,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).not.toHaveProperty('parts');
    const asAdmin = await t.request({
      method: 'PATCH',
      url: `/api/v1/test/gadgets/${gadgetId}`,
      payload: { name: 'Phone 3' },
      token: admin,
    });
    expect(asAdmin.json().data.parts).toEqual([expect.objectContaining({ name: 'Screen' })]);
  });

  it('holding the child permission opens the include', async () => {
    const reader = await staffToken(t, 'gadget_reader', ['test.gadgets', 'test.gadget_parts']);
    const res = await t.request({ url: `/api/v1/test/gadgets/${gadgetId}?include=parts`, token: reader });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.parts).toHaveLength(1);
  });
});
