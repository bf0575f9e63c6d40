import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import { MAX_JSON_DEPTH } from '../../server/core/http.ts';
import { issueToken, revokeTokens, sha256 } from '../../server/credentials/tokens.ts';
import { publishEvent } from '../../server/events/hub.ts';
import { MAX_STREAMS_PER_ADDRESS, MAX_STREAMS_PER_USER } from '../../server/events/module.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { openSse, type SseStream } from '../helpers/sse.ts';
import { uploadAsset } from '../helpers/upload.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

// Issue 27 (pen-test findings), items 5, 7, 8 and 9: too-deep JSON bodies, event stream limits and
// revocation, the avatar field, and the Host port, JSON charsets and unsupported methods.

/** `depth` levels of arrays around `inner`: `nest(2, '1')` is `[[1]]`. */
const nestArrays = (depth: number, inner = '') => '['.repeat(depth) + inner + ']'.repeat(depth);
/** `depth` levels of objects: `nestObjects(2, '1')` is `{"a":{"a":1}}`. */
const nestObjects = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
const json = { 'content-type': 'application/json' };

describe('JSON bodies nested too deeply (item 5)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  /** Creates a department whose body also carries `extra` (raw JSON text), which the route ignores. */
  const createWithExtra = (extra: string, headers: Record<string, string> = {}) =>
    t.request({
      method: 'POST',
      url: '/api/v1/user/departments',
      token: admin,
      headers: { ...json, ...headers },
      payload: `{"name":"Depth ${Math.random().toString(36).slice(2, 8)}","extra":${extra}}`,
    });

  it("answers the pen test's 3000 nested arrays on sign-in with a 422 in the envelope, in both languages", async () => {
    const body = nestArrays(3000);
    const en = await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { ...json, 'accept-language': 'en' },
      payload: body,
    });
    expect(en.statusCode).toBe(422);
    expect(en.json()).toEqual({
      code: 422,
      message: `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
      data: null,
    });
    const zh = await t.request({ method: 'POST', url: '/api/v1/user/login', headers: json, payload: body });
    expect(zh.statusCode).toBe(422);
    expect(zh.json().message).toBe(`请求体嵌套层级过深（最多 ${MAX_JSON_DEPTH} 层）`);
  });

  it.each([
    ['arrays', nestArrays(MAX_JSON_DEPTH)],
    ['objects', nestObjects(MAX_JSON_DEPTH)],
    ['arrays and objects', nestArrays(MAX_JSON_DEPTH / 2, nestObjects(MAX_JSON_DEPTH / 2))],
    ['very deep objects', nestObjects(20_000)],
    ['mixed, very deep', '[{"a":'.repeat(5000) + '1' + '}]'.repeat(5000)],
  ])('refuses %s one level past the limit (the body itself is a level)', async (_, extra) => {
    const res = await createWithExtra(extra, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/nested too deeply/);
  });

  /** The route's own answer to a body that got through the parser: `extra` is not one of its fields. */
  const expectReachedTheRoute = (res: Awaited<ReturnType<typeof createWithExtra>>) => {
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe('The given data was invalid');
    expect(Object.keys(res.json().errors)).toEqual(['extra']);
  };

  it('lets a body exactly at the limit through to the route', async () => {
    // The body's own object is level 1, so `extra` may nest MAX_JSON_DEPTH - 1 levels.
    const en = { 'accept-language': 'en' };
    expectReachedTheRoute(await createWithExtra(nestArrays(MAX_JSON_DEPTH - 1), en));
    expectReachedTheRoute(await createWithExtra(nestObjects(MAX_JSON_DEPTH - 1), en));
    // 31 times `[{"a":` is 62 levels, `[1]` the 63rd.
    expectReachedTheRoute(await createWithExtra('[{"a":'.repeat(31) + '[1]' + '}]'.repeat(31), en));
  });

  it('does not count brackets inside strings, escaped quotes and backslashes included', async () => {
    const name = '\\"[{'.repeat(30) + ']}';
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/departments',
      token: admin,
      headers: json,
      payload: `{"name":"${name}"}`,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.name).toBe(JSON.parse(`"${name}"`));
    const extra = `["${'['.repeat(500)}","\\\\","${'{'.repeat(500)}",${nestArrays(MAX_JSON_DEPTH - 2)}]`;
    expectReachedTheRoute(await createWithExtra(extra, { 'accept-language': 'en' }));
  });

  it('still answers malformed JSON as invalid JSON', async () => {
    const res = await createWithExtra(']]]]', { 'accept-language': 'en' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The request body is not valid JSON');
  });
});

describe('JSON bodies in another charset (item 9)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  const create = (contentType: string, payload: string | Buffer) =>
    t.request({
      method: 'POST',
      url: '/api/v1/user/departments',
      token: admin,
      headers: { 'content-type': contentType, 'accept-language': 'en' },
      payload,
    });

  it.each(['utf-16', 'UTF-16LE', 'iso-8859-1', '"utf-16"', 'latin1'])(
    'answers charset=%s with 415 in the envelope',
    async (charset) => {
      const body = JSON.stringify({ name: 'Charset' });
      const res = await create(`application/json; charset=${charset}`, Buffer.from(body, 'utf16le'));
      expect(res.statusCode).toBe(415);
      expect(res.json()).toEqual({
        code: 415,
        message: 'Unsupported character set; send JSON in UTF-8',
        data: null,
      });
    },
  );

  it('says so in Chinese as well', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      headers: { 'content-type': 'application/json; charset=utf-16' },
      payload: Buffer.from('{}', 'utf16le'),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('不支持的字符集，请使用 UTF-8 编码的 JSON');
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset="UTF-8"',
    'application/json; charset=utf8',
  ])('accepts %s', async (contentType) => {
    const res = await create(contentType, JSON.stringify({ name: `Charset ${contentType}` }));
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('a known path with another method (item 9)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.adminToken();
  });
  afterAll(() => t.close());

  const allowOf = (header: unknown) => String(header).split(/,\s*/).sort();

  it('answers PUT on an engine collection with 405, Allow and the envelope', async () => {
    const res = await t.request({
      method: 'PUT',
      url: '/api/v1/user/departments',
      token: admin,
      headers: { 'accept-language': 'en' },
      payload: {},
    });
    expect(res.statusCode).toBe(405);
    expect(allowOf(res.headers.allow)).toEqual(expect.arrayContaining(['DELETE', 'GET', 'PATCH', 'POST']));
    expect(allowOf(res.headers.allow)).not.toContain('PUT');
    expect(res.json()).toEqual({
      code: 405,
      message: `This endpoint does not accept PUT; allowed: ${res.headers.allow}`,
      data: null,
    });
  });

  it('answers PUT and POST on an engine item with 405 naming what it has', async () => {
    for (const method of ['PUT', 'POST'] as const) {
      const res = await t.request({ method, url: '/api/v1/user/departments/1', token: admin, payload: {} });
      expect(res.statusCode).toBe(405);
      expect(allowOf(res.headers.allow)).toEqual(expect.arrayContaining(['DELETE', 'GET', 'PATCH']));
      expect(res.json()).toMatchObject({ code: 405, data: null });
      expect(res.json().message).toContain(method);
    }
  });

  it('answers other routes the same way (Chinese by default)', async () => {
    const res = await t.request({ method: 'DELETE', url: '/api/v1/user/login' });
    expect(res.statusCode).toBe(405);
    expect(allowOf(res.headers.allow)).toContain('POST');
    expect(res.json().message).toMatch(/^此接口不接受 DELETE 请求/);
  });

  it('keeps 404 for an unknown path', async () => {
    const res = await t.request({ method: 'PUT', url: '/api/v1/nothing-here', payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers.allow).toBeUndefined();
    const deeper = await t.request({ method: 'PUT', url: '/api/v1/user/departments/1/2/3', payload: {} });
    expect(deeper.statusCode).toBe(404);
  });
});

describe('a configured port is that port only (item 9)', () => {
  it('PUBLIC_ORIGIN without a port accepts its scheme default port only', async () => {
    const t = await createTestApp({ publicOrigin: 'https://pub.example' });
    try {
      for (const [host, status] of [
        ['pub.example', 200],
        ['pub.example:443', 200],
        ['PUB.example', 200],
        ['pub.example:8443', 400],
        ['pub.example:80', 400],
        ['localhost:3000', 200],
      ] as const) {
        const res = await t.request({ url: '/api/v1', headers: { host } });
        expect(res.statusCode, host).toBe(status);
      }
    } finally {
      await t.close();
    }
  });

  it('PUBLIC_ORIGIN and ALLOWED_HOSTS with a port accept that port only', async () => {
    const t = await createTestApp({
      publicOrigin: 'http://pub.example:8080',
      allowedHosts: ['fixed.example:443', 'other.example:8443', 'any-port.example'],
    });
    try {
      for (const [host, status] of [
        ['pub.example:8080', 200],
        ['pub.example', 400],
        ['pub.example:8081', 400],
        ['fixed.example:443', 200],
        // A Host without a port names the scheme's default port.
        ['fixed.example', 200],
        ['fixed.example:8443', 400],
        ['other.example:8443', 200],
        ['other.example', 400],
        // A name configured without a port: any port (documented in docs/operations.md).
        ['any-port.example:1234', 200],
      ] as const) {
        const res = await t.request({ url: '/api/v1', headers: { host } });
        expect(res.statusCode, host).toBe(status);
      }
    } finally {
      await t.close();
    }
  });
});

describe("the avatar field takes only the caller's own uploads (item 8)", () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  const filesClerk = {
    permissions: [PERMISSION.settingsResources, `${PERMISSION.settingsResources}.create`],
  };
  beforeAll(async () => {
    t = await createTestApp();
    alice = await createUser(t.db, { staff: filesClerk });
    bob = await createUser(t.db, { staff: filesClerk });
  });
  afterAll(() => t.close());

  const setAvatar = (user: TestUser, avatar: string | null) =>
    t.request({
      method: 'POST',
      url: '/api/v1/user/profile',
      token: user.token,
      headers: { 'accept-language': 'en' },
      payload: { avatar },
    });

  it("answers someone else's file exactly as a missing one", async () => {
    const alicesFile = await uploadAsset(t, alice.token);
    const { rows } = await t.db.query<{ id: string }>('SELECT max(id)::text AS id FROM assets');
    const missing = String(BigInt(rows[0]!.id) + 1000n);
    const others = await setAvatar(bob, alicesFile);
    const absent = await setAvatar(bob, missing);
    expect(others.statusCode).toBe(422);
    expect(absent.statusCode).toBe(422);
    expect(others.body).toBe(absent.body);
    expect(others.json().errors).toHaveProperty('avatar');
    const stored = await t.db.query('SELECT avatar_id FROM users WHERE id = $1', [bob.userId]);
    expect(stored.rows[0]).toEqual({ avatar_id: null });
  });

  it('accepts a file the caller uploaded, and keeps it when the form is sent again', async () => {
    const own = await uploadAsset(t, bob.token);
    const res = await setAvatar(bob, own);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.avatar).toBe(`/api/v1/resources/assets/${own}/download`);
    expect((await setAvatar(bob, own)).statusCode).toBe(200);
    expect((await setAvatar(bob, null)).statusCode).toBe(200);
  });

  it('keeps an avatar set before uploads had an uploader when the form is sent again', async () => {
    const alicesFile = await uploadAsset(t, alice.token);
    const carol = await createUser(t.db);
    await t.db.query('UPDATE users SET avatar_id = $2 WHERE id = $1', [carol.userId, alicesFile]);
    const res = await setAvatar(carol, alicesFile);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.avatar).toBe(`/api/v1/resources/assets/${alicesFile}/download`);
  });

  it("the migration's backfill takes each older file's uploader from its audit row", async () => {
    const file = await uploadAsset(t, alice.token);
    await t.db.query('DELETE FROM asset_uploaders');
    const sql = fs.readFileSync(
      new URL('../../server/migrations/0112_asset_uploaders.sql', import.meta.url),
      'utf8',
    );
    await t.db.exec(sql.slice(sql.indexOf('INSERT INTO')));
    const { rows } = await t.db.query(
      'SELECT user_id::text AS user_id FROM asset_uploaders WHERE asset_id = $1',
      [file],
    );
    expect(rows).toEqual([{ user_id: alice.userId }]);
    expect((await setAvatar(alice, file)).statusCode).toBe(200);
    expect((await setAvatar(bob, file)).statusCode).toBe(422);
  });

  it('refuses any file to an account that uploaded none', async () => {
    const member = await createUser(t.db);
    const alicesFile = await uploadAsset(t, alice.token);
    const res = await setAvatar(member, alicesFile);
    expect(res.statusCode).toBe(422);
    expect((await setAvatar(member, 'not-a-number')).body).toBe(res.body);
  });
});

describe('event streams: limits and revocation (item 7)', () => {
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

  const stream = async (token: string) => {
    const s = await openSse(base, token);
    open.push(s);
    if (s.status === 200) await s.connected();
    return s;
  };
  /** Raises an event every open stream of `streams` gets, so what a stream did not get is known. */
  const everyoneSees = async (streams: SseStream[]) => {
    const marker = `control-${Math.random().toString(36).slice(2)}`;
    await publishEvent(t.db, { type: 'control', data: { marker }, permission: null });
    await Promise.all(
      streams.map((s) =>
        s.waitFor((e) => e.event === 'control' && (e.data as { marker: string }).marker === marker),
      ),
    );
  };
  /** Opens a stream once the server has let go of closed ones (their close reaches it a moment later). */
  const streamWhenFree = async (token: string) => {
    let s: SseStream | undefined;
    await expect
      .poll(
        async () => {
          s?.close();
          s = await stream(token);
          return s.status;
        },
        { timeout: 5_000 },
      )
      .toBe(200);
    return s!;
  };

  it(`lets a user hold ${MAX_STREAMS_PER_USER} streams; the next is a 429 with Retry-After`, async () => {
    const user = await createUser(t.db);
    const mine: SseStream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) mine.push(await stream(user.token));
    const res = await fetch(`${base}/api/v1/events`, {
      headers: { authorization: `Bearer ${user.token}`, 'accept-language': 'en' },
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await res.json()).toEqual({
      code: 429,
      message: 'Too many live event connections are open; close some and try again',
      data: null,
    });
    // Another account is not affected, and closing one stream frees a place.
    const other = await createUser(t.db);
    expect((await stream(other.token)).status).toBe(200);
    mine[0]!.close();
    await streamWhenFree(user.token);
    for (const s of open) s.close();
  });

  it(`lets one address hold ${MAX_STREAMS_PER_ADDRESS} streams`, async () => {
    const users = await Promise.all(
      Array.from({ length: Math.ceil(MAX_STREAMS_PER_ADDRESS / MAX_STREAMS_PER_USER) + 1 }, () =>
        createUser(t.db),
      ),
    );
    // Each waits, if need be, for the previous test's streams to be let go of: then all are this test's.
    for (let i = 0; i < MAX_STREAMS_PER_ADDRESS; i++)
      await streamWhenFree(users[Math.floor(i / MAX_STREAMS_PER_USER)]!.token);
    const last = users[users.length - 1]!;
    const res = await fetch(`${base}/api/v1/events`, { headers: { authorization: `Bearer ${last.token}` } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect((await res.json()).message).toBe('打开的实时事件连接过多，请关闭部分后重试');
    for (const s of open) s.close();
  });

  it('ends the streams of a token at once when it signs out, and only those', async () => {
    const user = await createUser(t.db);
    const second = (await issueToken(t.db, { userId: user.userId, remember: false })).accessToken;
    const signedOut = await streamWhenFree(user.token);
    const stays = await streamWhenFree(second);
    const res = await t.request({ method: 'POST', url: '/api/v1/user/logout', token: user.token });
    expect(res.statusCode).toBe(200);
    // Well before the 15 s heartbeat would notice.
    await signedOut.ended(3_000);
    await everyoneSees([stays]);
  });

  it('ends every stream of a user whose other tokens are revoked (password change) or who is disabled', async () => {
    const user = await createUser(t.db);
    const kept = (await issueToken(t.db, { userId: user.userId, remember: false })).accessToken;
    const keptRow = await t.db.query<{ id: string }>(
      'SELECT id::text AS id FROM access_tokens WHERE token_hash = $1',
      [sha256(kept)],
    );
    const revoked = await streamWhenFree(user.token);
    const stays = await streamWhenFree(kept);
    // What a password change does: every other token of the user.
    await revokeTokens(t.db, { userId: user.userId, exceptTokenId: keptRow.rows[0]!.id });
    await revoked.ended(3_000);
    await everyoneSees([stays]);
    // Disabling the user ends the rest.
    await t.db.query('UPDATE users SET state = false WHERE id = $1', [user.userId]);
    await stays.ended(3_000);
  });
});
