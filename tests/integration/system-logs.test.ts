import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openSse } from '../helpers/sse.ts';
import { createUser } from '../helpers/users.ts';

let t: TestApp;
let dataDir: string;
let token: string;
const SECRET = 'Zx9kQ2mP7vL4rT8wY1nB6cD3fG5hJ0sA2eR4tU6iO8p';

interface Entry {
  time: string;
  level: string;
  msg: string;
  record: Record<string, unknown>;
}
interface Page {
  data: Entry[];
  meta: { pagination: { total: number; count: number; current_page: number; total_pages: number } };
}

function line(time: string, level: string, msg: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ level, time, pid: 1, hostname: 'h', msg, ...extra });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-logs-'));
  const logs = path.join(dataDir, 'logs');
  fs.mkdirSync(logs, { recursive: true });
  const older = [
    line('2024-03-01T08:00:00.000Z', 'info', 'first of the day'),
    line('2024-03-01T09:00:00.000Z', 'warn', 'disk getting full'),
    line('2024-03-01T10:00:00.000Z', 'error', 'request failed', { url: `/api/x?token=${SECRET}` }),
  ];
  const newer = [
    line('2024-03-02T08:00:00.000Z', 'info', 'server started'),
    line('2024-03-02T08:30:00.000Z', 'info', `Authorization: Bearer ${SECRET}`),
    line('2024-03-02T09:00:00.000Z', 'warn', 'slow query', { password: 'hunter2', secret_key: 'abc' }),
    'not json at all',
    line('2024-03-02T10:00:00.000Z', 'info', 'last line'),
  ];
  fs.writeFileSync(path.join(logs, 'app-2024-03-01.log'), older.join('\n') + '\n');
  fs.writeFileSync(path.join(logs, 'app-2024-03-02.log'), newer.join('\n') + '\n');
  fs.writeFileSync(path.join(logs, 'other.txt'), line('2024-03-03T00:00:00.000Z', 'info', 'ignored'));
  t = await createTestApp({ dataDir });
  token = (await createUser(t.db, { staff: { permissions: [PERMISSION.systemLogs] } })).token;
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function logs(query = ''): Promise<Page> {
  const res = await t.request({ url: `/api/v1/system/logs${query}`, token });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: Page }).data;
}

describe('GET /api/v1/system/logs', () => {
  it('needs system.system.logs', async () => {
    const other = await createUser(t.db, { staff: { permissions: [PERMISSION.systemMonitor] } });
    expect((await t.request({ url: '/api/v1/system/logs' })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/v1/system/logs', token: other.token })).statusCode).toBe(403);
  });

  it('returns the pino lines newest first across the daily files', async () => {
    const page = await logs();
    expect(page.data.map((e) => e.msg)[0]).toBe('last line');
    expect(page.data.map((e) => e.time)).toEqual([...page.data.map((e) => e.time)].sort().reverse());
    expect(page.meta.pagination.total).toBe(7);
    expect(page.data.some((e) => e.msg === 'ignored')).toBe(false);
  });

  it('filters by lowest level, time range and text', async () => {
    expect((await logs('?level=warn')).data.map((e) => e.msg)).toEqual([
      'slow query',
      'request failed',
      'disk getting full',
    ]);
    expect((await logs('?level=error')).data.map((e) => e.msg)).toEqual(['request failed']);
    const range = await logs('?from=2024-03-01T08:30:00Z&to=2024-03-02T08:00:00Z');
    expect(range.data.map((e) => e.msg)).toEqual(['server started', 'request failed', 'disk getting full']);
    expect((await logs('?text=DISK')).data.map((e) => e.msg)).toEqual(['disk getting full']);
  });

  it('pages', async () => {
    const first = await logs('?size=3&page=1');
    const second = await logs('?size=3&page=2');
    const third = await logs('?size=3&page=3');
    expect(first.data).toHaveLength(3);
    expect(third.data).toHaveLength(1);
    expect(first.meta.pagination).toMatchObject({ total: 7, total_pages: 3, current_page: 1, count: 3 });
    const all = [...first.data, ...second.data, ...third.data].map((e) => e.msg);
    expect(new Set(all).size).toBe(7);
    expect(all.at(-1)).toBe('first of the day');
  });

  it('never shows secrets, even ones the writer missed', async () => {
    const res = await t.request({ url: '/api/v1/system/logs?size=200', token });
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain('hunter2');
    expect(res.body).toContain('[redacted]');
    expect((await logs(`?text=${SECRET.slice(0, 10)}`)).data).toEqual([]);
  });

  it('rejects a bad level or time with 422', async () => {
    expect((await t.request({ url: '/api/v1/system/logs?level=loud', token })).statusCode).toBe(422);
    expect((await t.request({ url: '/api/v1/system/logs?from=yesterday', token })).statusCode).toBe(422);
  });

  it('tails new lines live to log holders', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The barrier: the server starts the tail (which notes the file's current end) in the same synchronous
    // step that subscribes the stream and writes its head, so once openSse has the answer, a line appended
    // now is one the tail will send.
    const s = await openSse(base, token);
    expect(s.status).toBe(200);
    const today = path.join(dataDir, 'logs', `app-${new Date().toISOString().slice(0, 10)}.log`);
    fs.appendFileSync(today, line(new Date().toISOString(), 'info', `tail me Bearer ${SECRET}`) + '\n');
    const event = await s.waitFor((e) => e.event === 'log', 5_000);
    expect((event.data as Entry).msg).toContain('tail me');
    expect(JSON.stringify(event.data)).not.toContain(SECRET);
    s.close();
  });
});
