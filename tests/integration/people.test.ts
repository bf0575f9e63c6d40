import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let admin: string;

const call = (method: string, url: string, token: string, payload?: object) =>
  t.request({
    method: method as 'GET',
    url: `/api/${url}`,
    token,
    headers: { 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('departments', () => {
  it('builds a tree, refuses cycles (422) and deleting a department with children or staff (409)', async () => {
    const root = (await call('POST', 'v1/user/departments', admin, { name: 'HQ' })).json().data;
    expect(root.parent_id).toBe('0');
    const child = (
      await call('POST', 'v1/user/departments', admin, { name: 'Sales', parent_id: root.id })
    ).json().data;
    const grandchild = (
      await call('POST', 'v1/user/departments', admin, { name: 'East', parent_id: child.id, sort: 2 })
    ).json().data;

    const tree = (await call('GET', 'v1/user/department/tree', admin)).json().data;
    const hq = tree.find((n: { id: string }) => n.id === root.id);
    expect(hq).toMatchObject({ title: 'HQ', value: root.id, parent_id: '0', state: true });
    expect(hq.children[0]).toMatchObject({ id: child.id, title: 'Sales' });
    expect(hq.children[0].children[0]).toMatchObject({ id: grandchild.id, parent_id: child.id });

    const cycle = await call('PATCH', `v1/user/departments/${root.id}`, admin, { parent_id: grandchild.id });
    expect(cycle.statusCode).toBe(422);
    expect(cycle.json().errors.parent_id).toBeTruthy();
    const self = await call('PATCH', `v1/user/departments/${child.id}`, admin, { parent_id: child.id });
    expect(self.statusCode).toBe(422);
    const missing = await call('POST', 'v1/user/departments', admin, { name: 'X', parent_id: '999999' });
    expect(missing.statusCode).toBe(422);

    const move = await call('PATCH', `v1/user/departments/${grandchild.id}`, admin, { parent_id: root.id });
    expect(move.statusCode).toBe(200);
    expect(move.json().data.parent_id).toBe(root.id);

    expect((await call('DELETE', `v1/user/departments/${root.id}`, admin)).statusCode).toBe(409);
    await call('POST', 'v1/user/staff', admin, { name: 'Ann', department_id: child.id });
    expect((await call('DELETE', `v1/user/departments/${child.id}`, admin)).statusCode).toBe(409);
    expect((await call('DELETE', `v1/user/departments/${grandchild.id}`, admin)).statusCode).toBe(200);
  });
});

describe('staff', () => {
  it('creates with an invitation link, lists with filters (department includes sub-departments)', async () => {
    const top = (await call('POST', 'v1/user/departments', admin, { name: 'Ops' })).json().data;
    const sub = (
      await call('POST', 'v1/user/departments', admin, { name: 'Night', parent_id: top.id })
    ).json().data;
    const role = (
      await call('POST', 'v1/user/roles', admin, { name: 'Viewer', permissions: { menu_ids: [] } })
    ).json().data;
    const created = await call('POST', 'v1/user/staff', admin, {
      name: 'Bob Night',
      gender: 'male',
      phone: '13800000001',
      email: 'bob@example.com',
      department_id: sub.id,
      role_ids: [role.id],
      is_supervisor: true,
    });
    expect(created.statusCode).toBe(201);
    const bob = created.json().data;
    expect(bob).toMatchObject({ registered: false, user_id: null, role_ids: [role.id], is_admin: 0 });
    expect(bob.invitation_url).toMatch(/^http:\/\/[^/]+\/register\?invitation=[\w-]{40,}$/);
    const { rows } = await t.db.query<{ invitation_hash: string; days: number }>(
      `SELECT invitation_hash, extract(epoch FROM invitation_expires_at - now()) / 86400 AS days FROM staff WHERE id = $1`,
      [bob.id],
    );
    const token = new URL(bob.invitation_url).searchParams.get('invitation')!;
    expect(rows[0]!.invitation_hash).not.toContain(token);
    expect(Number(rows[0]!.days)).toBeGreaterThan(6.9);
    expect(Number(rows[0]!.days)).toBeLessThanOrEqual(7);

    const read = (await call('GET', `v1/user/staff/${bob.id}`, admin)).json().data;
    expect(read.invitation_url).toBeNull();

    const names = async (qs: string) =>
      (await call('GET', `v1/user/staff?${qs}`, admin)).json().data.data.map((s: { name: string }) => s.name);
    expect(await names(`search=department_id:${top.id}`)).toEqual(['Bob Night']);
    expect(await names(`search=department_id:${sub.id}`)).toEqual(['Bob Night']);
    expect(await names(`search=role_ids:${role.id}`)).toEqual(['Bob Night']);
    expect(await names(`search=name:night&searchFields=name:like`)).toEqual(['Bob Night']);
    expect(await names(`search=phone:0001&searchFields=phone:like`)).toEqual(['Bob Night']);
    expect(await names(`search=state:1;name:Bob Night`)).toEqual(['Bob Night']);
    expect(await names(`search=state:0;name:Bob Night`)).toEqual([]);
  });
});
