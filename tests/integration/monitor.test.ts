import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import type { MonitorSnapshot } from '../../server/modules/system-tools/monitor.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';

interface DashboardData {
  counts: { users: number; staff: number; sign_ins_today: number; failed_jobs: number | null };
  sign_ins: { day: string; count: number }[];
  recent_activity: { action: string }[];
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/v1/system/monitor', () => {
  it('needs system.system.monitor', async () => {
    const other = await createUser(t.db, { staff: { permissions: [PERMISSION.usersStaff] } });
    expect((await t.request({ url: '/api/v1/system/monitor' })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/v1/system/monitor', token: other.token })).statusCode).toBe(403);
  });

  it('reports host, disk, process, database and (for now unavailable) queue figures', async () => {
    const watcher = await createUser(t.db, { staff: { permissions: [PERMISSION.systemMonitor] } });
    const res = await t.request({ url: '/api/v1/system/monitor', token: watcher.token });
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: MonitorSnapshot }).data;
    expect(data.host.cpus).toBeGreaterThan(0);
    expect(data.host.cpu_usage).toBeGreaterThanOrEqual(0);
    expect(data.host.cpu_usage).toBeLessThanOrEqual(1);
    expect(data.host.load).toHaveLength(3);
    expect(data.host.memory.total).toBeGreaterThan(data.host.memory.free);
    expect(data.disk!.total).toBeGreaterThan(0);
    expect(data.process).toMatchObject({ node_version: process.version, pid: process.pid });
    expect(data.process.heap_used).toBeGreaterThan(0);
    expect(data.process.event_loop_p99_ms).toBeGreaterThanOrEqual(0);
    expect(data.database.kind).toBe(t.db.kind);
    expect(data.database.version).toMatch(/^\d+/);
    if (t.db.kind === 'postgres') {
      expect(data.database.size).toBeGreaterThan(0);
      expect(data.database.connections).toBeGreaterThan(0);
    }
    expect('queues' in data).toBe(true);
  });
});

describe('GET /api/v1/system/dashboard', () => {
  it('is for staff only and counts users, staff and today’s sign-ins', async () => {
    const member = await createUser(t.db);
    expect((await t.request({ url: '/api/v1/system/dashboard', token: member.token })).statusCode).toBe(403);
    const login = await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: 'admin', password: 'correct horse battery staple', remember: false },
    });
    expect(login.statusCode).toBe(200);
    const admin = await t.adminToken();
    const res = await t.request({ url: '/api/v1/system/dashboard', token: admin });
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: DashboardData }).data;
    const { rows } = await t.db.query<{ n: string }>('SELECT count(*)::text AS n FROM users');
    expect(data.counts.users).toBe(Number(rows[0]!.n));
    expect(data.counts.staff).toBeGreaterThanOrEqual(1);
    expect(data.counts.sign_ins_today).toBeGreaterThanOrEqual(1);
    expect(data.sign_ins).toHaveLength(30);
    expect(data.sign_ins.at(-1)!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(data.sign_ins.at(-1)!.count).toBe(data.counts.sign_ins_today);
    expect(data.recent_activity[0]).toMatchObject({ action: expect.any(String) });
  });

  it('shows recent activity only to holders of the activity log permission', async () => {
    const clerk = await createUser(t.db, { staff: { permissions: [PERMISSION.usersStaff] } });
    const res = await t.request({ url: '/api/v1/system/dashboard', token: clerk.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).not.toHaveProperty('recent_activity');
  });

  // Issue 12, item 3: each figure needs the permission of the page it summarises.
  it.each([
    [[], {}],
    [[PERMISSION.usersStaff], { counts: ['pending_invitations', 'staff'] }],
    [[PERMISSION.usersUsers], { counts: ['users'] }],
    [[PERMISSION.usersActivities], { counts: ['sign_ins_today'], sign_ins: true, recent_activity: true }],
    [[PERMISSION.systemJobs], { counts: ['failed_jobs'] }],
  ] as const)('a staff member holding %j sees exactly those figures', async (permissions, expected) => {
    const member = await createUser(t.db, { staff: { permissions: [...permissions] } });
    const res = await t.request({ url: '/api/v1/system/dashboard', token: member.token });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as Record<string, unknown> & { counts: Record<string, unknown> };
    expect(Object.keys(data.counts).sort()).toEqual([...('counts' in expected ? expected.counts : [])]);
    expect('sign_ins' in data).toBe('sign_ins' in expected);
    expect('recent_activity' in data).toBe('recent_activity' in expected);
  });
});
