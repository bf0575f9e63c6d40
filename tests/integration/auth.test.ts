import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { purgeAuthRows } from '../../server/credentials/purge.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let ipSeq = 0;
/** Each test signs in from its own address, so per-address ceilings of one test never touch another. */
const nextIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

const PASSWORD = 'lunar-otter-plays-cello';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function createUser({
  username,
  password = PASSWORD,
  email = null,
  phone = null,
  state = true,
}: {
  username: string;
  password?: string;
  email?: string | null;
  phone?: string | null;
  state?: boolean;
}): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, email, phone, state, password_hash) VALUES ($1, $1, $2, $3, $4, $5) RETURNING id`,
    [username, email, phone, state, await hashPassword(password)],
  );
  return rows[0]!.id;
}

function login(
  body: Record<string, unknown>,
  { ip = '127.0.0.1', lang = 'en' }: { ip?: string; lang?: string } = {},
) {
  return t.request({
    method: 'POST',
    url: '/api/v1/user/login',
    payload: body,
    remoteAddress: ip,
    headers: { 'accept-language': lang, 'user-agent': 'vitest-agent' },
  });
}

describe('POST login', () => {
  it('signs in with username, email or phone and answers { access_token, expires_at }', async () => {
    await createUser({ username: 'alice', email: 'Alice@Example.com', phone: '13800000001' });
    const ip = nextIp();
    for (const username of ['alice', 'ALICE', 'alice@example.com', '13800000001']) {
      const res = await login({ username, password: PASSWORD, remember: false }, { ip });
      expect(res.statusCode, username).toBe(200);
      const body = res.json();
      expect(Object.keys(body.data).sort()).toEqual(['access_token', 'expires_at']);
      expect(body.data.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.data.expires_at).toBeNull();
    }
  });

  it('issues a new token at every sign-in; remember gives a 30-day absolute expiry', async () => {
    await createUser({ username: 'bob' });
    const ip = nextIp();
    const a = (await login({ username: 'bob', password: PASSWORD }, { ip })).json().data;
    const b = (await login({ username: 'bob', password: PASSWORD, remember: true }, { ip })).json().data;
    expect(a.access_token).not.toBe(b.access_token);
    const days = (Date.parse(b.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    // Both work on their own.
    for (const token of [a.access_token, b.access_token]) {
      expect((await t.request({ url: '/api/v1/user/profile', token })).statusCode).toBe(200);
    }
    // Only hashes are stored.
    const { rows } = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM access_tokens');
    expect(rows.map((r) => r.token_hash)).not.toContain(a.access_token);
  });

  it('answers unknown user, wrong password and disabled user alike, in about the same time', async () => {
    await createUser({ username: 'carol' });
    await createUser({ username: 'dave', state: false });
    const ip = nextIp();
    const attempts = [
      { username: 'nobody-here', password: PASSWORD },
      { username: 'carol', password: 'wrong-password-123' },
      { username: 'dave', password: PASSWORD },
    ];
    const answers: unknown[] = [];
    const times: number[][] = [[], [], []];
    for (let round = 0; round < 3; round++) {
      for (const [i, body] of attempts.entries()) {
        const started = performance.now();
        const res = await login(body, { ip });
        times[i]!.push(performance.now() - started);
        expect(res.statusCode).toBe(422);
        answers.push(res.json());
      }
    }
    for (const answer of answers) {
      expect(answer).toEqual({
        code: 422,
        message: 'Incorrect account or password',
        data: null,
        errors: { username: ['Incorrect account or password'] },
      });
    }
    // Every path runs one argon2 operation: medians stay within a factor of each other, never 10x apart.
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1]!;
    const [unknown, wrong, disabled] = times.map(median) as [number, number, number];
    expect(unknown).toBeGreaterThan(wrong / 3);
    expect(disabled).toBeGreaterThan(wrong / 3);
    expect(unknown).toBeLessThan(wrong * 3);
  });

  it('gives 422 with the spec messages for an empty form', async () => {
    const res = await login({ username: '', password: '' }, { ip: nextIp() });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      username: ['Please enter username'],
      password: ['Please enter password'],
    });
    const zh = await login({}, { ip: nextIp(), lang: 'zh-CN' });
    expect(zh.json().errors).toEqual({ username: ['请输入用户名'], password: ['请输入密码'] });
  });

  it('after 5 failures per account and address answers 429 with Retry-After, even for the right password, until the window passes', async () => {
    await createUser({ username: 'erin' });
    const ip = nextIp();
    for (let i = 0; i < 5; i++) {
      const res = await login({ username: 'erin', password: `wrong-${i}-password` }, { ip });
      expect(res.statusCode).toBe(422);
    }
    const blocked = await login({ username: 'erin', password: PASSWORD }, { ip });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      code: 429,
      message: 'Too many requests; please try again later',
      data: null,
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(blocked.body).not.toContain('access_token');

    // Another address is not blocked for the same account (no lockout of the owner by a stranger).
    expect((await login({ username: 'erin', password: PASSWORD }, { ip: nextIp() })).statusCode).toBe(200);

    // The window passes (moved into the past rather than sleeping 60 s): the right password works again.
    await t.db.query(`UPDATE rate_limits SET reset_at = now() - interval '1 second'`);
    expect((await login({ username: 'erin', password: PASSWORD }, { ip })).statusCode).toBe(200);
  });

  it('puts a per-address ceiling on sign-in attempts whatever the account', async () => {
    const ip = nextIp();
    let last = 0;
    let retryAfter: string | undefined;
    for (let i = 0; i < 31; i++) {
      // Empty bodies: refused by validation without hashing, so the loop is fast.
      const res = await login({}, { ip });
      last = res.statusCode;
      retryAfter = res.headers['retry-after'] as string | undefined;
    }
    expect(last).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    await t.db.query(`UPDATE rate_limits SET reset_at = now() - interval '1 second'`);
  });

  it('records every success and failure in the activity log with address and user agent', async () => {
    await createUser({ username: 'frank' });
    const ip = nextIp();
    await login({ username: 'frank', password: 'not-the-password' }, { ip });
    await login({ username: 'frank', password: PASSWORD }, { ip });
    const { rows } = await t.db.query<{ action: string; ip: string; user_agent: string; changes: unknown }>(
      `SELECT action, ip, user_agent, changes FROM activity_logs WHERE ip = $1 ORDER BY id`,
      [ip],
    );
    expect(rows.map((r) => r.action)).toEqual(['auth.login_failed', 'auth.login']);
    expect(rows[0]).toMatchObject({ ip, user_agent: 'vitest-agent', changes: { reason: 'wrong_password' } });
    expect(JSON.stringify(rows)).not.toContain('not-the-password');
  });

  it('refuses a state-changing call whose XSRF header does not match the cookie', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
      cookies: { 'XSRF-TOKEN': 'a'.repeat(43) },
      headers: { 'x-xsrf-token': 'b'.repeat(43) },
      remoteAddress: nextIp(),
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('access_token');
    const good = await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
      cookies: { 'XSRF-TOKEN': 'a'.repeat(43) },
      headers: { 'x-xsrf-token': 'a'.repeat(43) },
      remoteAddress: nextIp(),
    });
    expect(good.statusCode).toBe(200);
  });
});

describe('POST logout', () => {
  it('revokes the token on the server and leaves the other tokens alive', async () => {
    await createUser({ username: 'gina' });
    const ip = nextIp();
    const one = (await login({ username: 'gina', password: PASSWORD }, { ip })).json().data.access_token;
    const two = (await login({ username: 'gina', password: PASSWORD }, { ip })).json().data.access_token;
    const out = await t.request({
      method: 'POST',
      url: '/api/v1/user/logout',
      token: one,
      remoteAddress: ip,
    });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ code: 200, data: null });
    expect((await t.request({ url: '/api/v1/user/profile', token: one })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/v1/user/profile', token: two })).statusCode).toBe(200);
    const { rows } = await t.db.query(
      `SELECT 1 FROM activity_logs WHERE action = 'auth.logout' AND ip = $1`,
      [ip],
    );
    expect(rows).toHaveLength(1);
  });

  it('needs a token', async () => {
    const res = await t.request({ method: 'POST', url: '/api/v1/user/logout' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST password', () => {
  it('checks the old password, the policy and the confirmation', async () => {
    await createUser({ username: 'hank' });
    const ip = nextIp();
    const token = (await login({ username: 'hank', password: PASSWORD }, { ip })).json().data.access_token;
    const change = (payload: Record<string, unknown>) =>
      t.request({
        method: 'POST',
        url: '/api/v1/user/password',
        token,
        payload,
        remoteAddress: ip,
        headers: { 'accept-language': 'en' },
      });
    const wrongOld = await change({
      old_password: 'nope-nope-nope',
      password: 'x'.repeat(3) + 'yz-abc-123',
      password_confirmation: 'x'.repeat(3) + 'yz-abc-123',
    });
    expect(wrongOld.statusCode).toBe(422);
    expect(wrongOld.json().errors).toEqual({ old_password: ['The current password is incorrect'] });

    const cases: Array<[string, string, Record<string, string[]>]> = [
      ['short12', 'short12', { password: ['The password format is incorrect'] }],
      ['x'.repeat(129), 'x'.repeat(129), { password: ['The password format is incorrect'] }],
      ['password123', 'password123', { password: ['The password format is incorrect'] }],
      ['Qwerty123!', 'Qwerty123!', { password: ['The password format is incorrect'] }],
      ['hank', 'hank', { password: ['The password format is incorrect'] }],
      [
        'a-fine-passphrase',
        'another-passphrase',
        { password_confirmation: ['The passwords entered twice do not match'] },
      ],
    ];
    for (const [password, confirmation, errors] of cases) {
      const res = await change({ old_password: PASSWORD, password, password_confirmation: confirmation });
      expect(res.statusCode, password).toBe(422);
      expect(res.json().errors, password).toEqual(errors);
    }
  });

  it('accepts a long passphrase, never truncated, and revokes the other tokens', async () => {
    await createUser({ username: 'ivan' });
    const ip = nextIp();
    const mine = (await login({ username: 'ivan', password: PASSWORD }, { ip })).json().data.access_token;
    const other = (await login({ username: 'ivan', password: PASSWORD }, { ip })).json().data.access_token;
    const passphrase = 'correct horse battery staple and a long tail of words '.repeat(3).slice(0, 128);
    expect(passphrase).toHaveLength(128);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/password',
      token: mine,
      remoteAddress: ip,
      payload: { old_password: PASSWORD, password: passphrase, password_confirmation: passphrase },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.request({ url: '/api/v1/user/profile', token: mine })).statusCode).toBe(200);
    expect((await t.request({ url: '/api/v1/user/profile', token: other })).statusCode).toBe(401);
    // Never truncated: the passphrase minus its last character is a different password.
    expect((await login({ username: 'ivan', password: passphrase.slice(0, 127) }, { ip })).statusCode).toBe(
      422,
    );
    expect((await login({ username: 'ivan', password: passphrase }, { ip })).statusCode).toBe(200);
    const { rows } = await t.db.query(
      `SELECT 1 FROM activity_logs WHERE action = 'auth.password_changed' AND ip = $1`,
      [ip],
    );
    expect(rows).toHaveLength(1);
  });
});

describe('GET/POST profile', () => {
  it('answers the profile with include=avatar and include=avatar,staff.roles', async () => {
    const token = await t.adminToken();
    const plain = await t.request({ url: '/api/v1/user/profile', token });
    expect(plain.json().data).toEqual({
      id: expect.stringMatching(/^\d+$/),
      username: 'admin',
      name: 'admin',
      email: null,
      phone: null,
    });
    const withAvatar = await t.request({ url: '/api/v1/user/profile?include=avatar', token });
    expect(withAvatar.json().data).toMatchObject({ avatar: null });
    expect(withAvatar.json().data).not.toHaveProperty('staff');

    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO roles (name, permissions) VALUES ('clerks', '{"menu_ids":["system.users.staff"]}') RETURNING id`,
    );
    await t.db.query(
      `INSERT INTO staff_roles (staff_id, role_id) SELECT id, $1 FROM staff WHERE is_admin = 1`,
      [rows[0]!.id],
    );
    const full = await t.request({ url: '/api/v1/user/profile?include=avatar,staff.roles', token });
    expect(full.json().data.staff).toEqual({
      id: expect.stringMatching(/^\d+$/),
      is_admin: 1,
      department_id: null,
      roles: [{ id: rows[0]!.id, name: 'clerks', permissions: { menu_ids: ['system.users.staff'] } }],
    });
    expect(full.body).not.toMatch(/password|hash/);
    expect((await t.request({ url: '/api/v1/user/profile?include=secrets', token })).statusCode).toBe(422);
    expect((await t.request({ url: '/api/v1/user/profile' })).statusCode).toBe(401);
  });

  it('changes the name; a new email needs a bind code', async () => {
    const id = await createUser({ username: 'judy' });
    const ip = nextIp();
    const token = (await login({ username: 'judy', password: PASSWORD }, { ip })).json().data.access_token;
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/profile',
      token,
      payload: { name: 'Judy Li' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, name: 'Judy Li', avatar: null });
    const noCode = await t.request({
      method: 'POST',
      url: '/api/v1/user/profile',
      token,
      payload: { email: 'judy@example.com' },
      headers: { 'accept-language': 'en' },
    });
    expect(noCode.statusCode).toBe(422);
    expect(noCode.json().errors).toEqual({ captcha: ['Please enter captcha'] });
    const badCode = await t.request({
      method: 'POST',
      url: '/api/v1/user/profile',
      token,
      payload: { email: 'judy@example.com', captcha: '123456' },
    });
    expect(badCode.statusCode).toBe(422);
    const { rows } = await t.db.query<{ email: string | null }>('SELECT email FROM users WHERE id = $1', [
      id,
    ]);
    expect(rows[0]!.email).toBeNull();
  });
});

describe('tokens', () => {
  it('disabling a user stops every token of theirs at once', async () => {
    const id = await createUser({ username: 'kate' });
    const ip = nextIp();
    const token = (await login({ username: 'kate', password: PASSWORD }, { ip })).json().data.access_token;
    await t.db.query('UPDATE users SET state = false WHERE id = $1', [id]);
    expect((await t.request({ url: '/api/v1/user/profile', token })).statusCode).toBe(401);
  });

  it('purgeAuthRows deletes expired tokens, old codes and ended windows', async () => {
    await t.db.query(
      `UPDATE access_tokens SET expires_at = now() - interval '1 minute' WHERE remember = false`,
    );
    await t.db.query(`UPDATE rate_limits SET reset_at = now() - interval '1 minute'`);
    const counts = await purgeAuthRows(t.db);
    expect(counts.tokens).toBeGreaterThan(0);
    const left = await t.db.query(`SELECT 1 FROM access_tokens WHERE expires_at < now()`);
    expect(left.rows).toHaveLength(0);
    expect((await t.db.query('SELECT 1 FROM rate_limits')).rows).toHaveLength(0);
  });
});
