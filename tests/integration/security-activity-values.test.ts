import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf } from '../../resources/fields.ts';
import { resources } from '../../resources/index.ts';
import { PERMISSION } from '../../schemas/permissions.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

// Issue 27, item 3 (pen-test finding): the activity log showed the values of what a row changed (a role's
// name and permission list, a department's name, settings values) to a reader who may not read the row's
// subject. A row's `changes` values and its `names` go only to a reader who may read the subject (and, for
// names, the referenced resource); otherwise `changes` is `{}` and `changes_withheld` lists the changed
// fields. Checked on every path that answers log rows (list, single read, dashboard) for every subject type
// the log holds, against an oracle written here from the contract: the reader's permissions.

/** Oracle: what a reader must hold (all of it) to see the values of a row about each subject type. */
const SUBJECT_PAGES: Record<string, readonly string[]> = {
  ...Object.fromEntries(
    resources.filter((r) => r.name !== 'activities').map((r) => [r.name, [r.permission]]),
  ),
  // Contract, Amendments 2026-11-24 "General settings": the group name and the general settings page.
  settings: [PERMISSION.settings, PERMISSION.settingsGeneral],
  modules: [PERMISSION.settingsModules],
  tasks: [PERMISSION.systemTasks],
};
/** A subject type nobody declared: administrators only. */
const UNDECLARED = 'nobody_declared';
/**
 * Subject types the server writes and declares for no page, on purpose, so their values are for administrators
 * only, as UNDECLARED's: a user's saved views (their names and queries), and an undo's list of what it put back.
 */
const ADMIN_ONLY = ['saved_views', 'operations'];

interface Row {
  id: string;
  action: string;
  subject_type: string | null;
  changes: Record<string, unknown> | null;
  changes_withheld: string[];
  subject: { label: string | null; deleted: boolean } | null;
  names: Record<string, Record<string, string>>;
}

interface Reader {
  label: string;
  token: string;
  permissions: readonly string[];
  admin?: boolean;
}

const SECRET = {
  role: 'Vault Keepers',
  renamed: 'Vault Keepers Renamed',
  permission: PERMISSION.systemLogs,
  department: 'Secret Dept',
  site: 'Hidden Site Name',
};

let t: TestApp;
let admin: string;
const readers: Reader[] = [];
let rowCount = 0;
/** A record of each referenced resource, by resource name (the canary rows refer to these). */
let someId: Record<string, string> = {};
/** One canary change set per subject type, also written last as the newest rows (see the dashboard test). */
const canaries = new Map<string, Record<string, unknown>>();

const sees = (reader: Reader, type: string | null): boolean =>
  reader.admin === true ||
  (type !== null && (SUBJECT_PAGES[type]?.every((p) => reader.permissions.includes(p)) ?? false));

/** What `reader` must get of a row, from the administrator's (complete) answer and the oracle. */
function project(full: Row, reader: Reader): Row {
  const readable = sees(reader, full.subject_type);
  return {
    ...full,
    changes: full.changes === null ? null : readable ? full.changes : {},
    changes_withheld: readable || full.changes === null ? [] : Object.keys(full.changes),
    subject: readable ? full.subject : null,
    names: readable ? Object.fromEntries(Object.entries(full.names).filter(([n]) => sees(reader, n))) : {},
  };
}

const get = async (url: string, token: string) => {
  const res = await t.request({ url, token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res;
};
const listOf = async (token: string): Promise<Row[]> =>
  (await get('/api/v1/user/logs?size=100', token)).json().data.data as Row[];
const byId = (rows: Row[]) => new Map(rows.map((r) => [r.id, r]));

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  const call = async (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) => {
    const res = await t.request({ method, url: `/api/${url}`, token: admin, payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data as { id?: string };
  };
  // Real writes through the routes: the shapes the product writes.
  const role = await call('POST', 'v1/user/roles', {
    name: SECRET.role,
    permissions: { menu_ids: [PERMISSION.system, SECRET.permission] },
  });
  await call('PATCH', `v1/user/roles/${role.id}`, { name: SECRET.renamed });
  const department = await call('POST', 'v1/user/departments', { name: SECRET.department });
  await call('POST', 'v1/user/staff', {
    name: 'Li Lei',
    department_id: department.id,
    role_ids: [role.id],
  });
  await call('POST', 'v1/dictionary/types', { name: 'Colours', slug: 'colours' });
  await call('POST', 'v1/settings/site', { site_name: SECRET.site });
  await call('POST', 'v1/system/modules/wechat/disable', {});
  await call('POST', 'v1/system/modules/wechat/enable', {});
  // Account events: a sign-in and a refused one (subject: the user account).
  for (const password of [ADMIN.password, 'not-the-password']) {
    await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: ADMIN.username, password, remember: false },
    });
  }

  // Canary rows for every subject type: every field of a resource changed, references to records whose
  // names are known, plain values that say what they are.
  const { rows: adminUser } = await t.db.query<{ id: string }>(
    `SELECT id FROM users WHERE username = 'admin'`,
  );
  someId = {
    roles: String(role.id),
    departments: String(department.id),
    users: String(adminUser[0]!.id),
  };
  for (const type of [...Object.keys(SUBJECT_PAGES), UNDECLARED]) {
    const resource = resources.find((r) => r.name === type);
    const fields = resource
      ? fieldsOf(resource).map((f) => ({ name: f.name, kind: f.kind, target: f.meta.relation?.resource }))
      : [{ name: 'value', kind: 'string', target: undefined }];
    const changes: Record<string, unknown> = {};
    for (const f of fields) {
      const id = f.target ? someId[f.target] : undefined;
      // `[null, id]` for a belongs-to, `[[], [id]]` for a many-to-many (the shapes the engine's diff writes).
      if (id) changes[f.name] = f.kind === 'references' ? [[], [id]] : [null, id];
      else changes[f.name] = [null, `canary:${type}.${f.name}`];
    }
    canaries.set(type, changes);
  }
  await writeCanaries();

  const reader = async (label: string, permissions: string[]) => {
    const all = [PERMISSION.users, PERMISSION.usersActivities, ...permissions];
    const user = await createUser(t.db, { staff: { permissions: all } });
    readers.push({ label, token: user.token, permissions: all });
  };
  await reader('the activity page alone', []);
  await reader('the settings group without its page', [PERMISSION.settings]);
  const pages = [...new Set(Object.values(SUBJECT_PAGES).flat())];
  for (const [type, needs] of Object.entries(SUBJECT_PAGES)) await reader(`the page of ${type}`, [...needs]);
  await reader('every page', pages);
  readers.push({ label: 'an administrator', token: admin, permissions: [], admin: true });
  const { rows } = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM activity_logs');
  rowCount = Number(rows[0]!.n);
  expect(rowCount).toBeLessThanOrEqual(100);
}, 180_000);
afterAll(() => t.close());

/** Writes one row per subject type with its canary changes, as the newest rows of the log. */
async function writeCanaries(only?: string): Promise<void> {
  for (const [type, changes] of canaries) {
    if (only && type !== only) continue;
    await t.db.query(
      `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id, changes)
       VALUES (NULL, $1, $2, $3, $4)`,
      [`${type}.update`, type, type === 'settings' ? 'site' : '1', JSON.stringify(changes)],
    );
  }
}

describe('activity values follow the read permission of what they are about', () => {
  it('the log holds every subject type the oracle knows, and no other', async () => {
    const { rows } = await t.db.query<{ subject_type: string }>(
      'SELECT DISTINCT subject_type FROM activity_logs ORDER BY subject_type',
    );
    expect(rows.map((r) => r.subject_type).sort()).toEqual(
      [...Object.keys(SUBJECT_PAGES), UNDECLARED].sort(),
    );
  });

  it('the oracle knows every subject type the server writes', () => {
    // Audit calls name their subject type as a literal (`subjectType: 'settings'`, the SQL of the first
    // administrator's row) or as a resource of the registry (writeAudit); a new one must be added above.
    const root = path.resolve(import.meta.dirname, '../../server');
    const written = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
          const text = readFileSync(file, 'utf8');
          for (const m of text.matchAll(/subjectType: '([a-z_]+)'/g)) written.add(m[1]!);
          for (const m of text.matchAll(/VALUES \(NULL, '[a-z_.]+', '([a-z_]+)'/g)) written.add(m[1]!);
        }
      }
    };
    walk(root);
    expect(written.size).toBeGreaterThan(3);
    for (const type of ADMIN_ONLY) expect(written, type).toContain(type);
    for (const type of written) expect([...Object.keys(SUBJECT_PAGES), ...ADMIN_ONLY], type).toContain(type);
  });

  it('the administrator gets every row whole', async () => {
    const list = await listOf(admin);
    expect(list).toHaveLength(rowCount);
    const { rows } = await t.db.query<{ id: string; changes: unknown }>(
      'SELECT id, changes FROM activity_logs',
    );
    const stored = new Map(rows.map((r) => [String(r.id), r.changes]));
    for (const row of list) {
      expect(row.changes_withheld, row.action).toEqual([]);
      const value = stored.get(row.id);
      expect(row.changes, row.action).toEqual(typeof value === 'string' ? JSON.parse(value) : value);
    }
    // The canary references are named for the administrator.
    const staffCanary = list.find((r) => r.subject_type === 'staff' && r.action === 'staff.update')!;
    expect(staffCanary.names.departments).toEqual({ [someId.departments!]: SECRET.department });
    expect(staffCanary.names.roles).toEqual({ [someId.roles!]: SECRET.renamed });
  });

  it('a reader of the activity page alone sees that roles, departments and settings changed, not to what', async () => {
    const alone = readers[0]!;
    const body = (await get('/api/v1/user/logs?size=100', alone.token)).body;
    for (const secret of Object.values(SECRET)) expect(body).not.toContain(secret);
    expect(body).not.toContain('canary:');
    const list = JSON.parse(body).data.data as Row[];
    const roleCreate = list.find((r) => r.action === 'roles.create')!;
    expect(roleCreate.changes).toEqual({});
    expect([...roleCreate.changes_withheld].sort()).toEqual(expect.arrayContaining(['name', 'permissions']));
    const dash = (await get('/api/v1/system/dashboard', alone.token)).body;
    for (const secret of Object.values(SECRET)) expect(dash).not.toContain(secret);
    expect(dash).not.toContain('canary:');
    // ... while a holder of the roles page sees the role's name and permission list.
    const rolesHolder = readers.find((r) => r.label === 'the page of roles')!;
    const seen = (await listOf(rolesHolder.token)).find((r) => r.action === 'roles.create')!;
    expect(seen.changes).toMatchObject({
      name: [null, SECRET.role],
      permissions: [null, { menu_ids: [PERMISSION.system, SECRET.permission] }],
    });
    const departmentsHolder = readers.find((r) => r.label === 'the page of departments')!;
    expect((await get('/api/v1/user/logs?size=100', departmentsHolder.token)).body).toContain(
      SECRET.department,
    );
    const settingsHolder = readers.find((r) => r.label === 'the page of settings')!;
    expect((await get('/api/v1/user/logs?size=100', settingsHolder.token)).body).toContain(SECRET.site);
  });

  it('every reader gets each listed row exactly as the oracle says', async () => {
    const full = byId(await listOf(admin));
    let cases = 0;
    for (const reader of readers) {
      const list = await listOf(reader.token);
      expect(list.map((r) => r.id)).toEqual([...full.keys()]);
      for (const row of list) {
        expect(row, `${reader.label}: ${row.action}`).toEqual(project(full.get(row.id)!, reader));
        cases++;
      }
    }
    console.log(`security-activity-values: ${cases} list cases over ${readers.length} readers`);
  });

  it('a single read answers the same as the list', async () => {
    const full = byId(await listOf(admin));
    for (const reader of readers) {
      for (const [id, row] of full) {
        const one = (await get(`/api/v1/user/logs/${id}`, reader.token)).json().data as Row;
        expect(one, `${reader.label}: ${row.action}`).toEqual(project(row, reader));
      }
    }
  });

  it('the dashboard recent activity follows the same rule, for a row of each subject type', async () => {
    const pick = (r: Row) => ({
      changes: r.changes,
      changes_withheld: r.changes_withheld,
      subject: r.subject,
      names: r.names,
    });
    for (const type of canaries.keys()) {
      await writeCanaries(type);
      const full = byId((await get('/api/v1/system/dashboard', admin)).json().data.recent_activity as Row[]);
      expect([...full.values()][0]!.subject_type).toBe(type);
      for (const reader of readers) {
        const recent = (await get('/api/v1/system/dashboard', reader.token)).json().data
          .recent_activity as Row[];
        expect(recent.map((r) => r.id)).toEqual([...full.keys()]);
        for (const row of recent) {
          expect(pick(row), `${reader.label}: ${type}`).toEqual(pick(project(full.get(row.id)!, reader)));
        }
      }
    }
  });

  it('no other path answers log rows to a reader who may not read their subject', async () => {
    const alone = readers[0]!;
    // No export of the log: `export` is not an id.
    expect((await t.request({ url: '/api/v1/user/logs/export', token: alone.token })).statusCode).toBe(404);
    // The sign-in history of an account is log rows about users: it needs the users page.
    const userId = (await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`))
      .rows[0]!.id;
    const logins = `/api/v1/user/users/${userId}/logins`;
    expect((await t.request({ url: logins, token: alone.token })).statusCode).toBe(403);
    const usersHolder = readers.find((r) => r.label === 'the page of users')!;
    expect((await t.request({ url: logins, token: usersHolder.token })).statusCode).toBe(200);
  });
});
