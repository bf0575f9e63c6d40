import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, logFileFor } from '../../server/core/logger.ts';
import { SECURITY_HEADERS } from '../../server/core/security-headers.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 37 item 2: the per-request work made cheaper gives up nothing: every answer still carries every header
// @fastify/helmet (registered the usual way, per request) would set; the XSRF cookie is minted for a browser
// without one and not sent again once it holds one; the request log has exactly one line per request.
let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-request-cost-'));
  const logger = createLogger({ level: 'info', logDir: path.join(dataDir, 'logs'), stdout: false });
  t = await createTestApp({ dataDir }, { logger });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** What @fastify/helmet itself sets, per request, with the product's options. */
async function helmetPerRequest(): Promise<Record<string, unknown>> {
  const reference = Fastify();
  await reference.register(helmet, SECURITY_HEADERS);
  reference.get('/', async () => ({}));
  const res = await reference.inject({ url: '/' });
  await reference.close();
  const {
    'content-type': _type,
    'content-length': _length,
    date: _date,
    connection: _c,
    ...rest
  } = res.headers;
  return rest;
}

describe('security headers', () => {
  it("every kind of answer carries all of helmet's headers with helmet's values", async () => {
    const expected = await helmetPerRequest();
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    const answers = [
      await t.request({ url: '/api/v1' }),
      await t.request({ url: '/api/health' }),
      await t.request({ url: '/api/no/such/route' }),
      await t.request({ url: '/api/v1/user/staff' }),
      await t.request({ method: 'POST', url: '/api/v1/user/login', payload: {} }),
    ];
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 404, 401, 422]);
    for (const answer of answers) expect(answer.headers).toMatchObject(expected);
  });
});

describe('security headers on every kind of answer', () => {
  // The full set, not a subset: the HTML shell, a static asset and a CSV download as well as API JSON carry
  // exactly helmet's headers (plus the answer's own), none missing and none added by the one hook.
  it('are the same full set on API JSON, the HTML shell, a static asset and a download', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-request-cost-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>admin</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-0123abcd.js'), 'console.log(1);');
    const spa = await createTestApp({ dataDir, distDir: dist });
    try {
      const expected = await helmetPerRequest();
      const token = await spa.adminToken();
      const answers = {
        json: await spa.request({ url: '/api/v1/user/staff', token }),
        shell: await spa.request({ url: '/some/page', headers: { accept: 'text/html' } }),
        asset: await spa.request({ url: '/assets/app-0123abcd.js' }),
        download: await spa.request({ url: '/api/v1/user/departments/export', token }),
      };
      const own: Record<keyof typeof answers, string[]> = {
        json: ['content-type', 'content-length', 'x-request-id', 'vary'],
        shell: [
          'content-type',
          'content-length',
          'x-request-id',
          'cache-control',
          'accept-ranges',
          'etag',
          'last-modified',
        ],
        asset: [
          'content-type',
          'content-length',
          'x-request-id',
          'cache-control',
          'accept-ranges',
          'etag',
          'last-modified',
        ],
        download: [
          'cache-control',
          'content-type',
          'content-disposition',
          'x-request-id',
          'transfer-encoding',
          'content-length',
          'vary',
        ],
      };
      for (const [kind, res] of Object.entries(answers) as [
        keyof typeof answers,
        (typeof answers)['json'],
      ][]) {
        expect(res.statusCode, kind).toBe(200);
        const { date: _d, connection: _c, 'set-cookie': _s, ...headers } = res.headers;
        const security = Object.fromEntries(
          Object.entries(headers).filter(([name]) => !own[kind].includes(name)),
        );
        expect(security, kind).toEqual(expected);
      }
      expect(answers.download.headers['content-disposition']).toContain('attachment');
    } finally {
      await spa.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe('the XSRF cookie', () => {
  // Every answer sets it (contract, "XSRF"), but a token is minted only when the browser holds none, or a
  // malformed one: a request with a valid cookie gets that same value back, and it keeps working for a write.
  it('is minted for a browser without one, and answered back unchanged while it holds a valid one', async () => {
    const first = await t.request({ url: '/api/v1' });
    const minted = first.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(minted?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const again = await t.request({ url: '/api/v1', cookies: { 'XSRF-TOKEN': minted!.value } });
    expect(again.statusCode).toBe(200);
    expect(again.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value).toBe(minted!.value);
    const list = await t.request({
      url: '/api/v1/user/staff',
      token: await t.adminToken(),
      cookies: { 'XSRF-TOKEN': minted!.value },
    });
    expect(list.statusCode).toBe(200);
    expect(list.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value).toBe(minted!.value);
    // A write with the cookie and its echo passes the check; without the echo it is refused.
    const echoed = await t.request({
      method: 'POST',
      url: '/api/v1/user/logout',
      cookies: { 'XSRF-TOKEN': minted!.value },
      headers: { 'x-xsrf-token': minted!.value },
    });
    expect(echoed.statusCode).toBe(401);
    expect(echoed.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value).toBe(minted!.value);
    const unechoed = await t.request({
      method: 'POST',
      url: '/api/v1/user/logout',
      cookies: { 'XSRF-TOKEN': minted!.value },
    });
    expect(unechoed.statusCode).toBe(403);
    // A malformed one is replaced.
    const bad = await t.request({ url: '/api/v1', cookies: { 'XSRF-TOKEN': 'short' } });
    expect(bad.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('the request log', () => {
  it('writes one line per request, with the request, its status and its time', async () => {
    const id = 'request-cost-0001';
    await t.request({ url: '/api/health?probe=1', headers: { 'x-request-id': id } });
    const file = logFileFor(path.join(dataDir, 'logs'), new Date());
    const linesOf = () =>
      fs.existsSync(file)
        ? fs
            .readFileSync(file, 'utf8')
            .split('\n')
            .filter((line) => line.includes(id))
            .map((line) => JSON.parse(line) as Record<string, unknown>)
        : [];
    await expect.poll(() => linesOf().length).toBe(1);
    // A later request's line is the control: once it is written, no second line of the first will follow.
    await t.request({ url: '/api/health', headers: { 'x-request-id': 'request-cost-0002' } });
    await expect.poll(() => fs.readFileSync(file, 'utf8').includes('request-cost-0002')).toBe(true);
    const lines = linesOf();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      msg: 'request completed',
      reqId: id,
      req: { method: 'GET', url: '/api/health?probe=1' },
      res: { statusCode: 200 },
    });
    expect(typeof lines[0]!.responseTime).toBe('number');
    expect(lines[0]).not.toHaveProperty('userId');
  });

  it('names the signed-in user, and never the token or the cookie', async () => {
    const id = 'request-cost-0003';
    const token = await t.adminToken();
    await t.request({
      url: '/api/v1/user/staff?size=1',
      token,
      headers: { 'x-request-id': id },
      cookies: { 'XSRF-TOKEN': 'c'.repeat(43) },
    });
    const file = logFileFor(path.join(dataDir, 'logs'), new Date());
    const lineOf = () =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .find((l) => l.includes(id));
    await expect.poll(lineOf).toBeTruthy();
    const line = lineOf()!;
    const admin = (await t.request({ url: '/api/v1/user/profile', token })).json().data as { id: unknown };
    expect(JSON.parse(line)).toMatchObject({ reqId: id, res: { statusCode: 200 }, userId: String(admin.id) });
    expect(line).not.toContain(token);
    expect(line).not.toContain('c'.repeat(43));
  });
});

describe('compression', () => {
  // Only where it pays: the health routes' few bytes skip @fastify/compress's hooks; answers over 1 kB are
  // still compressed for a client that accepts it.
  it('leaves the health answers alone and compresses a list', async () => {
    const br = { 'accept-encoding': 'br, gzip' };
    const health = await t.request({ url: '/api/health', headers: br });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ code: 200, data: { status: 'ok' } });
    const ready = await t.request({ url: '/api/health/ready', headers: br });
    expect(ready.statusCode).toBe(200);
    expect(ready.headers['content-encoding']).toBeUndefined();
    const docs = await t.request({ url: '/api/docs/json', headers: br });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-encoding']).toBe('br');
  });
});
