import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

let t: TestApp;
let admin: string;
let reader: TestUser;
let outsider: TestUser;
let plainUser: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  reader = await createUser(t.db, { staff: { permissions: ['system.settings', 'system.settings.general'] } });
  outsider = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } });
  plainUser = await createUser(t.db);
});
afterAll(() => t.close());

describe('settings groups', () => {
  it('returns defaults for a group never saved', async () => {
    const res = await t.request({ url: '/api/v1/settings/basic', token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      upload_max_size: 10485760,
      activity_retention_days: 180,
      trash_retention_days: 30,
    });
  });

  it('saves a group, audits it and feeds GET /api/v1 without restart', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/settings/site',
      token: admin,
      payload: { site_name: 'Acme Console' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ site_name: 'Acme Console', site_logo: '', timezone: 'Asia/Shanghai' });
    const boot = await t.request({ url: '/api/v1' });
    expect(boot.json().data.config.site_name).toBe('Acme Console');
    const { rows } = await t.db.query<{ changes: unknown }>(
      `SELECT changes FROM activity_logs WHERE action = 'settings.update' AND subject_id = 'site'`,
    );
    expect(rows[0]?.changes).toEqual({ site_name: ['Admin', 'Acme Console'] });
  });

  it('rejects invalid values with 422 and changes nothing', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/settings/site',
      token: admin,
      headers: { 'accept-language': 'en' },
      payload: { site_name: '', extra: true },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      site_name: ['Cannot be empty'],
      extra: ['This field is not allowed'],
    });
    const after = await t.request({ url: '/api/v1/settings/site', token: admin });
    expect(after.json().data.site_name).toBe('Acme Console');
  });

  it('keeps a logo address for the sign-in card, https or on this site only', async () => {
    const save = (site_logo: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/settings/site',
        token: admin,
        payload: { site_name: 'Acme Console', site_logo },
      });
    for (const bad of ['javascript:alert(1)', 'http://example.com/a.png', '//evil.example/a.png', 'data:x']) {
      const res = await save(bad);
      expect(res.statusCode, bad).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['site_logo']);
    }
    expect((await save('https://cdn.example.com/logo.png')).statusCode).toBe(200);
    expect((await t.request({ url: '/api/v1' })).json().data.config.site_logo).toBe(
      'https://cdn.example.com/logo.png',
    );
    expect((await save('')).statusCode).toBe(200);
    expect((await t.request({ url: '/api/v1' })).json().data.config.site_logo).toBe('');
  });

  it('answers 404 for an unknown group', async () => {
    const res = await t.request({ url: '/api/v1/settings/nope', token: admin });
    expect(res.statusCode).toBe(404);
  });

  it('enforces permissions: 401 anonymous, 403 non-staff or without the name, read-only without .update', async () => {
    expect((await t.request({ url: '/api/v1/settings/basic' })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/v1/settings/basic', token: plainUser.token })).statusCode).toBe(403);
    expect((await t.request({ url: '/api/v1/settings/basic', token: outsider.token })).statusCode).toBe(403);
    expect((await t.request({ url: '/api/v1/settings/basic', token: reader.token })).statusCode).toBe(200);
    const write = await t.request({
      method: 'POST',
      url: '/api/v1/settings/site',
      token: reader.token,
      payload: { site_name: 'Hijack' },
    });
    expect(write.statusCode).toBe(403);
  });
});
