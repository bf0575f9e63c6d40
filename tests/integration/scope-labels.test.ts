import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * A CSV export writes a referenced record by its representation (a staff member's department by its name):
 * only when the caller may see that record (its data scope) and that field (field access); else by its id,
 * so an export never tells what the caller's lists would not (issue 30).
 */
let t: TestApp;
let admin: string;
const ids: Record<string, string> = {};

const api = (method: string, url: string, token: string, payload?: unknown) =>
  t.request({
    method: method as 'POST',
    url,
    token,
    payload: payload as object,
    headers: { 'accept-language': 'en' },
  });

async function create(url: string, payload: object): Promise<string> {
  const answer = await api('POST', url, admin, payload);
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().data.id as string;
}

/** A member of `department` holding one role; answers its token. */
async function member(role: object, department: string): Promise<TestUser> {
  const roleId = await create('/api/v1/user/roles', role);
  const user = await createUser(t.db, { staff: {} });
  const placed = await api('PATCH', `/api/v1/user/staff/${user.staffId}`, admin, {
    department_id: department,
    role_ids: [roleId],
  });
  expect(placed.statusCode, placed.body).toBe(200);
  return user;
}

const GRANTS = ['system.users.staff', 'system.users.staff.export', 'system.users.departments'];
let n = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  ids.secret = await create('/api/v1/user/departments', { name: 'Secret department' });
});
afterAll(() => t.close());

async function departmentCells(token: string, staffId: string): Promise<string> {
  const answer = await api('GET', `/api/v1/user/staff/export?fields=id,department_id`, token);
  expect(answer.statusCode, answer.body).toBe(200);
  const line = answer.body.split(/\r?\n/).find((l) => l.replace(/^\uFEFF/, '').startsWith(`${staffId},`));
  expect(line, answer.body).toBeDefined();
  return line!.split(',')[1]!;
}

describe('reference columns of an export', () => {
  it('name a department outside the caller scope by its id', async () => {
    const self = await member(
      { name: `self ${++n}`, permissions: { menu_ids: GRANTS }, data_scope: 'self' },
      ids.secret!,
    );
    expect(await departmentCells(admin, self.staffId!)).toBe('Secret department');
    // Its own staff record is in scope (self), the department it sits in is not (it did not create it).
    expect(await departmentCells(self.token, self.staffId!)).toBe(ids.secret);
  });

  it('name a department by its id when its name is hidden from the caller', async () => {
    const blind = await member(
      {
        name: `blind ${++n}`,
        permissions: { menu_ids: GRANTS },
        data_scope: 'all',
        field_access: { 'departments.name': 'hidden' },
      },
      ids.secret!,
    );
    expect(await departmentCells(blind.token, blind.staffId!)).toBe(ids.secret);
    const sighted = await member(
      { name: `sighted ${++n}`, permissions: { menu_ids: GRANTS }, data_scope: 'all' },
      ids.secret!,
    );
    expect(await departmentCells(sighted.token, sighted.staffId!)).toBe('Secret department');
  });
});
