import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import { publishEvent } from '../../server/events/hub.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openSse, type SseStream } from '../helpers/sse.ts';
import { createUser } from '../helpers/users.ts';

let t: TestApp;
let base: string;
const open: SseStream[] = [];

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const s of open) s.close();
  await t.close();
});

async function stream(token: string | null, opts: { lastEventId?: string } = {}) {
  const s = await openSse(base, token, opts);
  open.push(s);
  // The first bytes ("retry" and a comment) mean the subscription is in place.
  if (s.status === 200) await s.connected();
  return s;
}

async function createDepartment(token: string, name: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/v1/user/departments', token, payload: { name } });
  expect(res.statusCode).toBe(201);
  return (res.json() as { data: { id: string } }).data.id;
}

/** Raises an event every signed-in stream receives and waits until each of `streams` has it. */
async function everyoneSees(streams: SseStream[]): Promise<void> {
  const marker = `control-${Math.random().toString(36).slice(2)}`;
  await publishEvent(t.db, { type: 'control', data: { marker }, permission: null });
  await Promise.all(
    streams.map((s) =>
      s.waitFor((e) => e.event === 'control' && (e.data as { marker: string }).marker === marker),
    ),
  );
}

describe('GET /api/v1/events', () => {
  it('needs a token (401 as JSON, no stream)', async () => {
    const res = await t.request({ url: '/api/v1/events' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401 });
    const bad = await fetch(`${base}/api/v1/events`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
  });

  it('streams text/event-stream with a retry hint', async () => {
    const res = await fetch(`${base}/api/v1/events`, {
      headers: { authorization: `Bearer ${await t.adminToken()}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toContain('no-cache');
    await res.body?.cancel();
  });

  it('delivers a record change to holders of the resource permission only', async () => {
    const admin = await t.adminToken();
    const deptClerk = await createUser(t.db, { staff: { permissions: [PERMISSION.usersDepartments] } });
    const roleClerk = await createUser(t.db, { staff: { permissions: [PERMISSION.usersRoles] } });
    const member = await createUser(t.db);
    const [sDept, sRole, sMember] = await Promise.all([
      stream(deptClerk.token),
      stream(roleClerk.token),
      stream(member.token),
    ]);
    const id = await createDepartment(admin, 'Live events');
    const seen = await sDept.waitFor((e) => e.event === 'record');
    expect(seen.data).toMatchObject({ resource: 'departments', id, action: 'create' });
    expect(seen.id).toMatch(/^[0-9a-f]{8}\.\d+$/);

    // A roles change does reach the roles clerk, so silence about departments is filtering, not lag.
    const role = await t.request({
      method: 'POST',
      url: '/api/v1/user/roles',
      token: admin,
      payload: { name: 'Live role', permissions: { menu_ids: [] } },
    });
    expect(role.statusCode).toBe(201);
    await sRole.waitFor((e) => e.event === 'record' && (e.data as { resource: string }).resource === 'roles');
    // The control event: one for every signed-in stream, raised after both changes. Events reach a stream in
    // the order they were raised, so once each stream has it, any leaked change would already be there.
    await everyoneSees([sDept, sRole, sMember]);
    expect(sRole.events.some((e) => (e.data as { resource?: string }).resource === 'departments')).toBe(
      false,
    );
    expect(sDept.events.some((e) => (e.data as { resource?: string }).resource === 'roles')).toBe(false);
    expect(sMember.events.filter((e) => e.event === 'record')).toEqual([]);
  });

  it('reports update and delete with the acting user', async () => {
    const admin = await t.adminToken();
    const s = await stream(admin);
    const id = await createDepartment(admin, 'To change');
    await t.request({
      method: 'PATCH',
      url: `/api/v1/user/departments/${id}`,
      token: admin,
      payload: { name: 'x' },
    });
    await t.request({ method: 'DELETE', url: `/api/v1/user/departments/${id}`, token: admin });
    const del = await s.waitFor(
      (e) => e.event === 'record' && (e.data as { action: string }).action === 'delete',
    );
    expect(del.data).toMatchObject({ resource: 'departments', id });
    const actions = s.events
      .filter((e) => e.event === 'record' && (e.data as { id: string }).id === id)
      .map((e) => (e.data as { action: string }).action);
    expect(actions).toEqual(['create', 'update', 'delete']);
    expect((del.data as { actor_id: string }).actor_id).toMatch(/^\d+$/);
  });

  it('a CSV import sends one event listing the updated ids, not one per row', async () => {
    const admin = await t.adminToken();
    const s = await stream(admin);
    const importRoles = async (csv: string) => {
      const boundary = '----events-test';
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/user/roles/import?upsert=name',
        token: admin,
        payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await importRoles('name,intro\nImported A,a\nImported B,b\nImported C,c\n');
    const first = await s.waitFor(
      (e) => e.event === 'record' && (e.data as { action: string }).action === 'import',
    );
    expect(first.data).toMatchObject({ resource: 'roles', id: null, ids: [] });
    const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM roles WHERE name = 'Imported B'`);
    await importRoles('name,intro\nImported B,changed\n');
    const second = await s.waitFor(
      (e) => e.event === 'record' && (e.data as { ids?: string[] }).ids?.length === 1,
    );
    expect(second.data).toMatchObject({ resource: 'roles', action: 'import', ids: [String(rows[0]!.id)] });
    const roleEvents = s.events.filter(
      (e) => e.event === 'record' && (e.data as { resource: string }).resource === 'roles',
    );
    expect(roleEvents).toHaveLength(2);
  });

  it('replays missed events after Last-Event-ID and asks for a refetch when it cannot', async () => {
    const admin = await t.adminToken();
    const [first, watcher] = await Promise.all([stream(admin), stream(admin)]);
    await createDepartment(admin, 'Before');
    const seen = await first.waitFor((e) => e.event === 'record');
    first.close();
    const missedId = await createDepartment(admin, 'While away');
    // Another stream on this server has it, so the server holds it for replay before the resume asks.
    await watcher.waitFor((e) => e.event === 'record' && (e.data as { id: string }).id === missedId);
    const resumed = await stream(admin, { lastEventId: seen.id! });
    const replayed = await resumed.waitFor(
      (e) => e.event === 'record' && (e.data as { id: string }).id === missedId,
    );
    expect(replayed.id).not.toBe(seen.id);

    const unknown = await stream(admin, { lastEventId: 'ffffffff.1' });
    await unknown.waitFor((e) => e.event === 'reset');
  });

  it('sends monitor figures every 2 s to monitor holders only', async () => {
    const watcher = await createUser(t.db, { staff: { permissions: [PERMISSION.systemMonitor] } });
    const other = await createUser(t.db, { staff: { permissions: [PERMISSION.usersStaff] } });
    const sWatch = await stream(watcher.token);
    const sOther = await stream(other.token);
    const figures = await sWatch.waitFor((e) => e.event === 'monitor', 5_000);
    expect(figures.data).toMatchObject({
      process: { node_version: process.version },
      database: { kind: t.db.kind },
    });
    expect(sOther.events.some((e) => e.event === 'monitor')).toBe(false);
  });
});
