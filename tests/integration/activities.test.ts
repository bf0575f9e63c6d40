import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trimActivityLog } from '../../server/modules/activities/index.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

const BASE = '/api/v1/user/logs';
let t: TestApp;
let admin: string;
let auditor: TestUser;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  auditor = await createUser(t.db, { staff: { permissions: ['system.users.activities'] } });
  const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
  adminId = String(rows[0]!.id);
  // Two audited writes through real routes, and two old rows written directly.
  await t.request({
    method: 'POST',
    url: '/api/v1/dictionary/types',
    token: admin,
    payload: { name: 'Colours', slug: 'colours' },
  });
  await t.request({
    method: 'POST',
    url: '/api/v1/settings/site',
    token: admin,
    payload: { site_name: 'Log test' },
  });
  await t.db.query(
    `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id, changes, ip, created_at)
     VALUES ($1, 'old.update', 'old', '1', '{}', '10.0.0.1', now() - interval '400 days'),
            ($2, 'old.update', 'old', '2', '{}', '10.0.0.2', now() - interval '10 days')`,
    [adminId, auditor.userId],
  );
});
afterAll(() => t.close());

const list = (query: string, token = auditor.token) => t.request({ url: `${BASE}?${query}`, token });

describe('activity log', () => {
  it('lists rows newest first with the operator embedded and contract fields', async () => {
    const res = await list('size=50', admin);
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json().data;
    expect(meta.pagination.total).toBe(data.length);
    const created = data.find((r: { action: string }) => r.action === 'dictionaries.create');
    expect(created).toMatchObject({
      id: expect.stringMatching(/^\d+$/),
      operator: { id: adminId, username: 'admin' },
      action: 'dictionaries.create',
      subject_type: 'dictionaries',
      subject_id: expect.any(String),
      changes: { name: [null, 'Colours'], slug: [null, 'colours'] },
      created_at: expect.stringMatching(/Z$/),
    });
    expect(created.operator).toHaveProperty('name');
    expect(created.changes_withheld).toEqual([]);
    // A reader of the log alone may not read dictionaries: the changed fields, not their values.
    const seen = (await list('size=50')).json().data.data.find((r: { id: string }) => r.id === created.id);
    expect(seen).toMatchObject({ changes: {}, changes_withheld: Object.keys(created.changes) });
    expect(seen.changes_withheld).toEqual(expect.arrayContaining(['name', 'slug']));
    const times = data.map((r: { created_at: string }) => Date.parse(r.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('filters by operator, action, resource and date range; pages', async () => {
    const byOperator = (await list(`search=operator_id:${auditor.userId}`)).json().data.data;
    expect(byOperator.map((r: { subject_id: string }) => r.subject_id)).toEqual(['2']);
    const byAction = (await list('search=action:settings.update')).json().data.data;
    expect(byAction).toHaveLength(1);
    expect(byAction[0].subject_id).toBe('site');
    const byType = (await list('search=subject_type:dictionaries')).json().data.data;
    expect(byType.every((r: { subject_type: string }) => r.subject_type === 'dictionaries')).toBe(true);
    const from = new Date(Date.now() - 30 * 86400_000).toISOString();
    const to = new Date(Date.now() - 5 * 86400_000).toISOString();
    const range = (await list(`search=created_at:${from},${to}&searchFields=created_at:between`)).json().data
      .data;
    expect(range.map((r: { ip: string }) => r.ip)).toEqual(['10.0.0.2']);
    const page = (await list('size=1&page=2')).json().data;
    expect(page.data).toHaveLength(1);
    expect(page.meta.pagination).toMatchObject({ per_page: 1, current_page: 2 });
  });

  it('offers the operators who appear in the log, without the users permission', async () => {
    const bystander = await createUser(t.db, { username: 'never_acted' });
    const { rows } = await t.db.query<{ username: string }>('SELECT username FROM users WHERE id = $1', [
      auditor.userId,
    ]);
    const auditorName = rows[0]!.username;
    const operators = async (query: string, token = auditor.token) => {
      const res = await t.request({ url: `${BASE}/operators?${query}`, token });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { id: string; username: string }[]).map((o) => o.username);
    };
    expect(await operators('')).toEqual(expect.arrayContaining(['admin', auditorName]));
    expect(await operators('')).not.toContain('never_acted');
    expect(await operators('q=adm')).toEqual(['admin']);
    expect(await operators('q=%25')).toEqual([]);
    // The chosen operator stays listed (first) whatever the search.
    expect(await operators(`q=adm&id=${auditor.userId}`)).toEqual([auditorName, 'admin']);
    expect((await t.request({ url: `${BASE}/operators`, token: bystander.token })).statusCode).toBe(403);
    expect((await t.request({ url: `${BASE}/operators?id=x`, token: auditor.token })).statusCode).toBe(422);
  });

  it('422 on a field that is not searchable', async () => {
    expect((await list('search=user_agent:x')).statusCode).toBe(422);
    expect((await list('orderBy=ip')).statusCode).toBe(422);
  });

  it('is read-only: no create, update or delete route', async () => {
    const id = (await list('size=1')).json().data.data[0].id;
    expect((await t.request({ url: `${BASE}/${id}`, token: admin })).statusCode).toBe(200);
    const post = await t.request({ method: 'POST', url: BASE, token: admin, payload: { action: 'x' } });
    const patch = await t.request({
      method: 'PATCH',
      url: `${BASE}/${id}`,
      token: admin,
      payload: { action: 'x' },
    });
    const del = await t.request({ method: 'DELETE', url: `${BASE}/${id}`, token: admin });
    // A known path asked with a method it lacks is a 405 naming what it allows (issue 27, item 9).
    expect([post.statusCode, patch.statusCode, del.statusCode]).toEqual([405, 405, 405]);
    expect(del.headers.allow).toBe('GET, HEAD');
    expect((await list('size=1')).json().data.data[0].id).toBe(id);
  });

  it('needs system.users.activities', async () => {
    const other = await createUser(t.db, { staff: { permissions: ['system.settings'] } });
    expect((await list('', other.token)).statusCode).toBe(403);
    expect((await t.request({ url: BASE })).statusCode).toBe(401);
  });

  it('trimActivityLog removes rows older than activity_retention_days', async () => {
    await t.request({
      method: 'POST',
      url: '/api/v1/settings/basic',
      token: admin,
      payload: { upload_max_size: 10485760, activity_retention_days: 30 },
    });
    const count = async (ip: string) =>
      (await t.db.query('SELECT 1 FROM activity_logs WHERE ip = $1', [ip])).rows.length;
    expect(await trimActivityLog(t.db)).toBe(1);
    expect(await count('10.0.0.1')).toBe(0);
    expect(await count('10.0.0.2')).toBe(1);
    expect(await trimActivityLog(t.db, { now: new Date(Date.now() + 25 * 86400_000) })).toBe(1);
    expect(await count('10.0.0.2')).toBe(0);
  });
});

describe('activity log: the operation of a bulk call (issue 36 item 5)', () => {
  it('answers operation_id and undoable by the undo rules, and not once undone', async () => {
    const ids: string[] = [];
    for (const slug of ['op_a', 'op_b']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/dictionary/types',
        token: admin,
        payload: { name: slug, slug },
      });
      ids.push(res.json().data.id);
    }
    const bulk = await t.request({
      method: 'PATCH',
      url: `/api/v1/dictionary/types?ids=${ids.join(',')}`,
      token: admin,
      payload: { name: 'Renamed' },
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const operationId = bulk.json().meta.operation_id as string;
    const rowsOf = async (token: string) => {
      const res = await list('search=action:dictionaries.update&size=50', token);
      expect(res.statusCode, res.body).toBe(200);
      return (
        res.json().data.data as {
          id: string;
          subject_id: string;
          operation_id: string | null;
          undoable: boolean;
        }[]
      ).filter((r) => ids.includes(r.subject_id));
    };
    const mine = await rowsOf(admin);
    expect(mine).toHaveLength(2);
    expect(mine.every((r) => r.operation_id === operationId && r.undoable)).toBe(true);
    // One read answers the same; a row of no operation answers null and false.
    const one = (await t.request({ url: `${BASE}/${mine[0]!.id}`, token: admin })).json().data;
    expect(one).toMatchObject({ operation_id: operationId, undoable: true });
    const plain = (await list('search=action:dictionaries.create&size=1', admin)).json().data.data[0];
    expect(plain).toMatchObject({ operation_id: null, undoable: false });
    // Someone else's operation, or a reader without the permission it needed: not undoable.
    const editor = await createUser(t.db, {
      staff: {
        permissions: [
          'system.users.activities',
          'system.settings.dictionaries',
          'system.settings.dictionaries.update',
        ],
      },
    });
    expect((await rowsOf(editor.token)).map((r) => r.undoable)).toEqual([false, false]);
    expect((await rowsOf(auditor.token)).map((r) => [r.operation_id, r.undoable])).toEqual([
      [operationId, false],
      [operationId, false],
    ]);
    const undo = await t.request({
      method: 'POST',
      url: `/api/v1/operations/${operationId}/undo`,
      token: admin,
    });
    expect(undo.statusCode, undo.body).toBe(200);
    // The undo's own rows are no operation's; the operation's rows are no longer undoable.
    const after = await rowsOf(admin);
    expect(after.filter((r) => r.operation_id === null)).toHaveLength(2);
    expect(after.filter((r) => r.operation_id === operationId).map((r) => r.undoable)).toEqual([
      false,
      false,
    ]);
  });
});
