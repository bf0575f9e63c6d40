import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ok } from '../../server/core/envelope.ts';
import { validate } from '../../server/core/validate.ts';
import { migrate } from '../../server/db/migrate.ts';
import { ensureFirstAdmin } from '../../server/bootstrap.ts';
import type { AppModule } from '../../server/core/app-module.ts';
import { email } from '../../schemas/common.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const echoModule: AppModule = {
  name: 'echo',
  register(app) {
    app.post('/api/test/echo', async (request) => {
      const body = validate(z.strictObject({ name: z.string().min(1), email }), request.body);
      return ok(body);
    });
    app.get('/api/test/boom', async () => {
      throw new Error('select secret_column from users where password = $1');
    });
  },
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ bodyLimit: 1024 }, { extraModules: [echoModule] });
});
afterAll(() => t.close());

describe('GET /api/v1', () => {
  it('answers the start-up status and config without a token', async () => {
    const res = await t.request({ url: '/api/v1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: 200,
      data: {
        status: 'ready',
        config: expect.objectContaining({ site_name: 'Admin', languages: ['zh-CN', 'en'], currency: 'CNY' }),
      },
    });
  });

  it('reflects the stored site and language settings', async () => {
    await t.db.query(
      `INSERT INTO settings (name, value) VALUES ('site', '{"site_name":"Acme"}'), ('languages', '{"languages":["en","zh-CN"]}')`,
    );
    const res = await t.request({ url: '/api/v1' });
    expect(res.json().data.config).toMatchObject({ site_name: 'Acme', languages: ['en', 'zh-CN'] });
    await t.db.query(`DELETE FROM settings`);
  });

  it('sets a script-readable XSRF-TOKEN cookie and security headers', async () => {
    const res = await t.request({ url: '/api/v1' });
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect(cookie?.httpOnly).toBeFalsy();
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeTruthy();
  });
});

describe('health', () => {
  it('reports liveness and readiness', async () => {
    expect((await t.request({ url: '/api/health' })).json()).toEqual({ code: 200, data: { status: 'ok' } });
    expect((await t.request({ url: '/api/health/ready' })).json()).toEqual({
      code: 200,
      data: { status: 'ready' },
    });
  });
});

describe('error envelope', () => {
  it('answers unknown /api paths with a JSON 404 in the request language', async () => {
    const zh = await t.request({ url: '/api/nope' });
    expect(zh.statusCode).toBe(404);
    expect(zh.json()).toEqual({ code: 404, message: '接口不存在', data: null });
    const en = await t.request({ url: '/api/nope', headers: { 'accept-language': 'en-US,en;q=0.9' } });
    expect(en.json().message).toBe('No such API endpoint');
  });

  it('gives 422 with localized field messages and echoes nothing unknown', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'accept-language': 'en' },
      payload: { email: 'nope', extra: 1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      code: 422,
      message: 'The given data was invalid',
      data: null,
      errors: { name: ['Cannot be empty'], email: ['Invalid email'], extra: ['This field is not allowed'] },
    });
    const zh = await t.request({ method: 'POST', url: '/api/test/echo', payload: { name: 'a', email: 'x' } });
    expect(zh.json().errors).toEqual({ email: ['邮箱格式不正确'] });
  });

  it('accepts valid JSON', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'Li', email: 'LI@x.CN' },
    });
    expect(res.json()).toEqual({ code: 200, data: { name: 'Li', email: 'li@x.cn' } });
  });

  it('rejects a body that is not JSON with 415', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 415 });
  });

  it('rejects malformed JSON with 422', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe(422);
  });

  it('rejects an oversized body with 413', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'x'.repeat(5000), email: 'a@b.cn' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe(413);
  });

  it('hides the cause of a 500', async () => {
    const res = await t.request({ url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 500, message: '服务器错误', data: null });
    expect(res.body).not.toMatch(/select|secret|at .*\.ts/);
  });
});

describe('XSRF and origin', () => {
  const body = { name: 'Li', email: 'li@x.cn' };
  it('refuses a state-changing call whose header does not match the cookie', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      cookies: { 'XSRF-TOKEN': 'a'.repeat(43) },
      headers: { 'x-xsrf-token': 'b'.repeat(43) },
      payload: body,
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(403);
    const missing = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      cookies: { 'XSRF-TOKEN': 'a'.repeat(43) },
      payload: body,
    });
    expect(missing.statusCode).toBe(403);
  });

  it('accepts a matching header', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      cookies: { 'XSRF-TOKEN': 'a'.repeat(43) },
      headers: { 'x-xsrf-token': 'a'.repeat(43) },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a state-changing call from another origin', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: { origin: 'https://evil.example', host: 'localhost:3000' },
      payload: body,
    });
    expect(res.statusCode).toBe(403);
    const same = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: { origin: 'http://localhost:3000', host: 'localhost:3000' },
      payload: body,
    });
    expect(same.statusCode).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('serves the generated document at /api/docs and a UI', async () => {
    const res = await t.request({ url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain('/api/v1');
    const ui = await t.request({ url: '/api/docs', headers: { accept: 'text/html' } });
    expect(ui.statusCode).toBe(302);
    const page = await t.request({ url: '/api/docs/ui/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    // The UI is built on its first request (core/api-docs.ts): its files, and the app's 404 for others.
    const script = await t.request({ url: '/api/docs/ui/static/swagger-initializer.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    const missing = await t.request({ url: '/api/docs/ui/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 404, data: null });
  });
});

describe('migrations and first administrator', () => {
  it('re-running migrations is a no-op', async () => {
    expect(await migrate(t.db)).toEqual([]);
  });

  it('creates the administrator once, with a staff record holding is_admin 1', async () => {
    const again = await ensureFirstAdmin(t.db, { username: 'other', password: null });
    expect(again).toEqual({ created: false, generatedPassword: null });
    const { rows } = await t.db.query<{ username: string; is_admin: number; password_hash: string }>(
      `SELECT u.username, s.is_admin, u.password_hash FROM users u JOIN staff s ON s.user_id = u.id`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ username: 'admin', is_admin: 1 });
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('built SPA', () => {
  it('serves hashed assets for a year, index.html never cached, with history fallback', async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    const spa = await createTestApp({ distDir: dist });
    try {
      const asset = await spa.request({ url: '/assets/index-abc123.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const url of ['/', '/settings/staff', '/login?href=%2Fdashboard']) {
        const page = await spa.request({ url });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toContain('text/html');
        expect(page.headers['cache-control']).toBe('no-cache');
        expect(page.body).toContain('<title>app</title>');
      }
      expect((await spa.request({ url: '/assets/missing.js' })).statusCode).toBe(404);
      expect((await spa.request({ url: '/api/missing' })).json().code).toBe(404);
    } finally {
      await spa.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it("sends the build's precompressed assets, compresses JSON, and serves a robots.txt that disallows all", async () => {
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const zlib = await import('node:zlib');
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
    const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc123.js.gz'), zlib.gzipSync(script));
    const spa = await createTestApp({ distDir: dist });
    try {
      const br = await spa.request({
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
      const gz = await spa.request({
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'gzip' },
      });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);
      const plain = await spa.request({ url: '/assets/index-abc123.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);

      const robots = await spa.request({ url: '/robots.txt' });
      expect(robots.statusCode).toBe(200);
      expect(robots.headers['content-type']).toContain('text/plain');
      expect(robots.body).toContain('Disallow: /');

      // The OpenAPI document is a large JSON answer: compressed when the client accepts it.
      const docs = await spa.request({ url: '/api/docs', headers: { 'accept-encoding': 'br' } });
      expect(docs.headers['content-encoding']).toBe('br');
      const document = JSON.parse(zlib.brotliDecompressSync(docs.rawPayload).toString()) as {
        openapi: string;
      };
      expect(document.openapi).toMatch(/^3\./);
      // A request body in gzip is not inflated by the server: it is not JSON, so 422 (or 415), never 5xx.
      const zipped = await spa.request({
        method: 'POST',
        url: '/api/v1/user/login',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: zlib.gzipSync('{"username":"a","password":"b"}'),
      });
      expect(zipped.statusCode).toBeGreaterThanOrEqual(400);
      expect(zipped.statusCode).toBeLessThan(500);
    } finally {
      await spa.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
