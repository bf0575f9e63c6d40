import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

// The activity log names what its rows mention (subject and referenced records) in the same request, and
// only for resources the caller may read.
let t: TestApp;
let admin: string;
let auditor: TestUser;
let staffReader: TestUser;
let staffId: string;
let goneId: string;

interface Row {
  action: string;
  subject_id: string;
  subject: { label: string | null; deleted: boolean } | null;
  names: Record<string, Record<string, string>>;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  auditor = await createUser(t.db, { staff: { permissions: ['system.users.activities'] } });
  staffReader = await createUser(t.db, {
    staff: { permissions: ['system.users.activities', 'system.users.staff', 'system.users.roles'] },
  });
  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await t.request({ method: 'POST', url, token: admin, payload });
    expect(res.statusCode, res.body).toBe(201);
    return String(res.json().data.id);
  };
  const roleId = await post('/api/v1/user/roles', { name: 'Auditors' });
  const departmentId = await post('/api/v1/user/departments', { name: 'Sales' });
  staffId = await post('/api/v1/user/staff', {
    name: 'Li Lei',
    role_ids: [roleId],
    department_id: departmentId,
  });
  goneId = await post('/api/v1/user/staff', { name: 'Han Meimei' });
  const del = await t.request({ method: 'DELETE', url: `/api/v1/user/staff/${goneId}`, token: admin });
  expect(del.statusCode).toBeLessThan(300);
}, 180_000);
afterAll(() => t.close());

const rows = async (token: string): Promise<Row[]> => {
  const res = await t.request({ url: '/api/v1/user/logs?size=100&subject_type=staff', token });
  expect(res.statusCode).toBe(200);
  return res.json().data.data as Row[];
};

describe('legible activity rows', () => {
  it('names the subject and the referenced role and department for a reader of those pages', async () => {
    const list = await rows(staffReader.token);
    const created = list.find((r) => r.action === 'staff.create' && r.subject_id === staffId)!;
    expect(created.subject).toEqual({ label: 'Li Lei', deleted: false });
    expect(Object.values(created.names.roles ?? {})).toEqual(['Auditors']);
    // Departments are not among this reader's pages: no names from there.
    expect(created.names.departments).toBeUndefined();
    const gone = list.find((r) => r.action === 'staff.delete' && r.subject_id === goneId)!;
    expect(gone.subject).toEqual({ label: null, deleted: true });
  });

  it('tells a reader of the log alone nothing more than the log itself', async () => {
    const list = await rows(auditor.token);
    expect(list.length).toBeGreaterThan(0);
    for (const row of list) {
      expect(row.subject).toBeNull();
      expect(row.names).toEqual({});
    }
  });

  it('gives the administrator every name, on the dashboard too', async () => {
    const list = await rows(admin);
    const created = list.find((r) => r.action === 'staff.create' && r.subject_id === staffId)!;
    expect(Object.values(created.names.departments ?? {})).toEqual(['Sales']);
    const dash = await t.request({ url: '/api/v1/system/dashboard', token: admin });
    const recent = dash.json().data.recent_activity as Row[];
    expect(recent.find((r) => r.action === 'staff.create' && r.subject_id === staffId)?.subject).toEqual({
      label: 'Li Lei',
      deleted: false,
    });
    expect(dash.json().data.counts.pending_invitations).toBeGreaterThanOrEqual(1);
  });

  it("names the first administrator's staff record, which is no field of the account", async () => {
    const res = await t.request({ url: '/api/v1/user/logs?search=action:system.bootstrap', token: admin });
    expect(res.statusCode).toBe(200);
    const [row] = res.json().data.data as (Row & { changes: Record<string, [unknown, unknown]> })[];
    const staffRecord = String(row!.changes.staff_id![1]);
    expect(row!.names.staff).toEqual({ [staffRecord]: 'admin' });
    const dash = await t.request({ url: '/api/v1/system/dashboard', token: admin });
    const recent = dash.json().data.recent_activity as Row[];
    expect(recent.find((r) => r.action === 'system.bootstrap')?.names.staff).toEqual({
      [staffRecord]: 'admin',
    });
    // A reader of staff and roles, but not of accounts, learns nothing from the account's row.
    const other = await t.request({
      url: '/api/v1/user/logs?search=action:system.bootstrap',
      token: staffReader.token,
    });
    expect((other.json().data.data as Row[])[0]?.names).toEqual({});
  });
});
