import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signInAtIssuer, startIssuer, type TestIssuer } from '../helpers/oidc-issuer.ts';

/**
 * OpenID Connect sign-in (issue 31, item 4) against a real provider: oidc-provider on loopback, started here.
 * The browser is played by hand: our server's redirects and the issuer's development login page.
 */
const ORIGIN = 'http://admin.test';
let t: TestApp;
let idp: TestIssuer;
let ipSeq = 0;
const nextIp = () => `10.130.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
const PASSWORD = 'lunar-otter-plays-cello';

beforeAll(async () => {
  idp = await startIssuer({
    redirectUris: ['corp', 'auto', 'gone'].map((id) => `${ORIGIN}/api/v1/oidc/${id}/callback`),
  });
  t = await createTestApp({ publicOrigin: ORIGIN });
  const role = await t.db.query<{ id: string }>(
    `INSERT INTO roles (name, permissions) VALUES ('oidc-readers', '{"menu_ids":[]}') RETURNING id`,
  );
  const provider = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    label: `Corp ${id}`,
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
    ...extra,
  });
  const saved = await saveLogin({
    oidc_providers: [
      provider('corp'),
      provider('auto', { auto_create: true, default_role_ids: [role.rows[0]!.id, '999999'] }),
    ],
  });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

async function saveLogin(patch: Record<string, unknown>) {
  const token = await t.adminToken();
  const current = (await t.request({ url: '/api/v1/settings/login', token })).json().data;
  const body = { ...current, ...patch };
  delete body.wechat_app_secret_set;
  return t.request({ method: 'POST', url: '/api/v1/settings/login', token, payload: body });
}

async function createUser(username: string, { password = true, state = true } = {}): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, state, password_hash) VALUES ($1, $1, $2, $3) RETURNING id`,
    [username, state, password ? await hashPassword(PASSWORD) : null],
  );
  return rows[0]!.id;
}

/** One browser: its cookies for our server (the oidc_browser nonce) and its address. */
function browser() {
  const jar = new Map<string, string>();
  const ip = nextIp();
  const keep = (res: { cookies: { name: string; value: string }[] }) => {
    for (const c of res.cookies) jar.set(c.name, c.value);
  };
  const cookies = () => Object.fromEntries(jar);
  return {
    ip,
    jar,
    async get(url: string, token?: string) {
      const res = await t.request({
        url,
        remoteAddress: ip,
        cookies: cookies(),
        ...(token ? { token } : {}),
      });
      keep(res);
      return res;
    },
    async post(url: string, payload: Record<string, unknown>, token?: string) {
      const res = await t.request({
        method: 'POST',
        url,
        payload,
        remoteAddress: ip,
        cookies: cookies(),
        // As the front end does: the XSRF cookie's value echoed in the header.
        headers: {
          'accept-language': 'en',
          'user-agent': 'vitest-agent',
          ...(jar.has('XSRF-TOKEN') ? { 'x-xsrf-token': jar.get('XSRF-TOKEN')! } : {}),
        },
        ...(token ? { token } : {}),
      });
      keep(res);
      return res;
    },
  };
}
type Browser = ReturnType<typeof browser>;

/** `GET auth`, then the issuer's login page: answers our callback's path and query. */
async function throughIssuer(
  b: Browser,
  provider: string,
  login: string,
  { href = '', tamper = (u: URL) => u } = {},
) {
  const start = await b.get(
    `/api/v1/oidc/${provider}/auth${href ? `?href=${encodeURIComponent(href)}` : ''}`,
  );
  expect(start.statusCode).toBe(302);
  const authUrl = tamper(new URL(start.headers.location as string));
  expect(authUrl.origin).toBe(idp.issuer);
  const back = await signInAtIssuer(authUrl.href, login);
  expect(back.origin).toBe(ORIGIN);
  return back;
}

/** The whole round trip up to our redirect to the front end (`/login?oidc_ticket=...` or an error). */
async function callback(
  b: Browser,
  provider: string,
  login: string,
  options: { href?: string; tamper?: (u: URL) => URL } = {},
) {
  const back = await throughIssuer(b, provider, login, options);
  const res = await b.get(back.pathname + back.search);
  expect(res.statusCode).toBe(302);
  return new URL(res.headers.location as string, ORIGIN);
}

async function bind(b: Browser, token: string, provider: string, login: string) {
  const start = await b.post(`/api/v1/user/oidc/${provider}/bind`, {}, token);
  expect(start.statusCode).toBe(200);
  const back = await signInAtIssuer(start.json().data.url, login);
  const res = await b.get(back.pathname + back.search);
  expect(res.statusCode).toBe(302);
  return new URL(res.headers.location as string, ORIGIN);
}

async function passwordToken(username: string, b: Browser): Promise<string> {
  const res = await b.post('/api/v1/user/login', { username, password: PASSWORD });
  expect(res.statusCode).toBe(200);
  return res.json().data.access_token;
}

describe('settings', () => {
  it('never answers a client secret and keeps it when a save omits it', async () => {
    const token = await t.adminToken();
    const read = (await t.request({ url: '/api/v1/settings/login', token })).json().data;
    expect(read.oidc_providers[0]).toMatchObject({ id: 'corp', client_secret_set: true });
    expect(JSON.stringify(read)).not.toContain(idp.clientSecret);
    // Saved back as read (no secret): it still works.
    expect((await saveLogin({ oidc_providers: read.oidc_providers })).statusCode).toBe(200);
    const { rows } = await t.db.query<{ value: { oidc_providers: { client_secret: string }[] } }>(
      `SELECT value FROM settings WHERE name = 'login'`,
    );
    expect(rows[0]!.value.oidc_providers.map((p) => p.client_secret)).toEqual([
      idp.clientSecret,
      idp.clientSecret,
    ]);
    const audit = await t.db.query<{ changes: unknown }>(
      `SELECT changes FROM activity_logs WHERE action = 'settings.update' AND subject_id = 'login'`,
    );
    expect(JSON.stringify(audit.rows)).not.toContain(idp.clientSecret);
  });

  it('refuses an issuer that is not https (http only on loopback) and duplicate ids', async () => {
    const bad = await saveLogin({
      oidc_providers: [{ id: 'x', label: 'X', issuer: 'http://idp.example.com', client_id: 'c' }],
    });
    expect(bad.statusCode).toBe(422);
    const dup = await saveLogin({
      oidc_providers: [
        { id: 'x', label: 'X', issuer: 'https://idp.example.com', client_id: 'c' },
        { id: 'x', label: 'Y', issuer: 'https://idp.example.com', client_id: 'd' },
      ],
    });
    expect(dup.statusCode).toBe(422);
  });

  it('lists the providers (id and label only) in the start-up configuration', async () => {
    const res = await t.request({ url: '/api/v1' });
    expect(res.json().data.config.oidc_providers).toEqual([
      { id: 'corp', label: 'Corp corp' },
      { id: 'auto', label: 'Corp auto' },
    ]);
  });
});

describe('sign-in', () => {
  it('signs a bound user in through the provider: ticket, then token; the ticket serves once', async () => {
    const userId = await createUser('oidc_alice');
    idp.addAccount({
      sub: 'alice-sub',
      email: 'alice@corp.test',
      email_verified: true,
      preferred_username: 'alice',
    });
    const b = browser();
    expect((await bind(b, await passwordToken('oidc_alice', b), 'corp', 'alice-sub')).search).toBe(
      '?oidc_bound=corp',
    );

    const c = browser();
    const to = await callback(c, 'corp', 'alice-sub', { href: '/settings/staff' });
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('href')).toBe('/settings/staff');
    const ticket = to.searchParams.get('oidc_ticket')!;
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { rows } = await t.db.query('SELECT 1 FROM oidc_tickets WHERE ticket_hash = $1', [ticket]);
    expect(rows).toHaveLength(0); // kept hashed

    const login = await c.post('/api/v1/oidc/login', { ticket });
    expect(login.statusCode).toBe(200);
    const token = login.json().data.access_token as string;
    const info = await t.request({ url: '/api/v1/user/info', token });
    expect(info.statusCode).toBe(200);
    expect(info.json().data.user_id).toBe(userId);
    expect(login.cookies.some((ck) => ck.name === 'login_device')).toBe(true);

    const again = await c.post('/api/v1/oidc/login', { ticket });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.ticket).toEqual(['This sign-in has expired; please sign in again']);
    const activity = await t.db.query<{ changes: Record<string, unknown> }>(
      `SELECT changes FROM activity_logs WHERE action = 'auth.login' AND subject_id = $1`,
      [userId],
    );
    expect(activity.rows.map((r) => r.changes)).toContainEqual(
      expect.objectContaining({ method: 'oidc', provider: 'corp' }),
    );
  });

  it('refuses an expired ticket', async () => {
    await createUser('oidc_bob');
    idp.addAccount({ sub: 'bob-sub' });
    const b = browser();
    await bind(b, await passwordToken('oidc_bob', b), 'corp', 'bob-sub');
    const to = await callback(b, 'corp', 'bob-sub');
    await t.db.query(`UPDATE oidc_tickets SET expires_at = now() - interval '1 second'`);
    const res = await b.post('/api/v1/oidc/login', { ticket: to.searchParams.get('oidc_ticket')! });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.ticket).toEqual(['This sign-in has expired; please sign in again']);
  });

  it('a user with a second factor gets the second step, not a token', async () => {
    const userId = await createUser('oidc_carol');
    idp.addAccount({ sub: 'carol-sub' });
    const b = browser();
    const token = await passwordToken('oidc_carol', b);
    await bind(b, token, 'corp', 'carol-sub');
    const start = await b.post('/api/v1/user/2fa/totp', {}, token);
    const secret = start.json().data.secret as string;
    expect(
      (await b.post('/api/v1/user/2fa/totp/confirm', { code: await generate({ secret }) }, token)).statusCode,
    ).toBe(200);
    const to = await callback(b, 'corp', 'carol-sub');
    const res = await b.post('/api/v1/oidc/login', { ticket: to.searchParams.get('oidc_ticket')! });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ mfa_required: true, methods: ['totp', 'recovery'] });
    expect(res.json().data.access_token).toBeUndefined();
    expect(userId).toBeTruthy();
  });

  it('refuses a disabled account at the callback and at the ticket', async () => {
    const userId = await createUser('oidc_dave');
    idp.addAccount({ sub: 'dave-sub' });
    const b = browser();
    await bind(b, await passwordToken('oidc_dave', b), 'corp', 'dave-sub');
    // Disabled after the callback: the ticket is refused.
    const to = await callback(b, 'corp', 'dave-sub');
    await t.db.query('UPDATE users SET state = false WHERE id = $1', [userId]);
    const late = await b.post('/api/v1/oidc/login', { ticket: to.searchParams.get('oidc_ticket')! });
    expect(late.statusCode).toBe(422);
    // Disabled before: the callback says so and hands out no ticket.
    const refused = await callback(b, 'corp', 'dave-sub');
    expect(refused.pathname).toBe('/login');
    expect(refused.searchParams.get('oidc_error')).toBe('disabled');
    expect(refused.searchParams.has('oidc_ticket')).toBe(false);
  });

  it('an unknown subject without auto_create gets no account', async () => {
    idp.addAccount({ sub: 'stranger-sub', preferred_username: 'stranger' });
    const before = await t.db.query('SELECT count(*)::int AS n FROM users');
    const to = await callback(browser(), 'corp', 'stranger-sub');
    expect(to.searchParams.get('oidc_error')).toBe('not_linked');
    expect(to.searchParams.has('oidc_ticket')).toBe(false);
    const after = await t.db.query('SELECT count(*)::int AS n FROM users');
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('auto_create makes a staff member with the default roles (unknown role ids skipped)', async () => {
    idp.addAccount({
      sub: 'erin-sub',
      email: 'erin@corp.test',
      email_verified: true,
      name: 'Erin Example',
      preferred_username: 'erin',
    });
    const b = browser();
    const to = await callback(b, 'auto', 'erin-sub');
    const res = await b.post('/api/v1/oidc/login', { ticket: to.searchParams.get('oidc_ticket')! });
    expect(res.statusCode).toBe(200);
    const { rows } = await t.db.query<{
      username: string;
      email: string;
      password_hash: string | null;
      roles: string[];
    }>(
      `SELECT u.username, u.email, u.password_hash,
              array(SELECT r.name FROM staff_roles sr JOIN roles r ON r.id = sr.role_id WHERE sr.staff_id = s.id) AS roles
         FROM users u JOIN staff s ON s.user_id = u.id WHERE u.username = 'erin'`,
    );
    expect(rows).toEqual([
      { username: 'erin', email: 'erin@corp.test', password_hash: null, roles: ['oidc-readers'] },
    ]);
    // The activity row writes the granted roles as a list change (before, after), never as a bare list.
    const register = await t.db.query<{ changes: Record<string, unknown> }>(
      `SELECT changes FROM activity_logs WHERE action = 'auth.register' ORDER BY id DESC LIMIT 1`,
    );
    const roleId = (
      await t.db.query<{ id: string }>(`SELECT id::text FROM roles WHERE name = 'oidc-readers'`)
    ).rows[0]!.id;
    expect(register.rows[0]!.changes.role_ids).toEqual([[], [roleId]]);
    // The second time the same subject signs in to the same account.
    const again = await callback(b, 'auto', 'erin-sub');
    const second = await b.post('/api/v1/oidc/login', { ticket: again.searchParams.get('oidc_ticket')! });
    expect(second.statusCode).toBe(200);
    expect((await t.db.query(`SELECT 1 FROM users WHERE username LIKE 'erin%'`)).rows).toHaveLength(1);
  });

  it('auto_create never takes over an existing account by its name or an unverified email', async () => {
    const adminId = (await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`))
      .rows[0]!.id;
    idp.addAccount({
      sub: 'mallory-sub',
      preferred_username: 'admin',
      email: 'x@corp.test',
      email_verified: false,
    });
    const b = browser();
    const to = await callback(b, 'auto', 'mallory-sub');
    const res = await b.post('/api/v1/oidc/login', { ticket: to.searchParams.get('oidc_ticket')! });
    const info = await t.request({ url: '/api/v1/user/info', token: res.json().data.access_token });
    expect(info.statusCode).toBe(200);
    expect(info.json().data.user_id).not.toBe(adminId);
    const { rows } = await t.db.query<{ username: string; email: string | null }>(
      `SELECT u.username, u.email FROM users u JOIN oidc_identities i ON i.user_id = u.id WHERE i.subject = 'mallory-sub'`,
    );
    expect(rows[0]!.username).toMatch(/^auto_[0-9a-f]{10}$/);
    expect(rows[0]!.email).toBeNull();
  });
});

describe('forgeries', () => {
  it('refuses a forged state, a state from another browser and a state used twice', async () => {
    idp.addAccount({ sub: 'alice-sub', preferred_username: 'alice' });
    const b = browser();
    const back = await throughIssuer(b, 'corp', 'alice-sub');
    // A made-up state.
    const forged = new URL(back);
    forged.searchParams.set('state', 'A'.repeat(32));
    const res1 = await b.get(forged.pathname + forged.search);
    expect(new URL(res1.headers.location as string, ORIGIN).searchParams.get('oidc_error')).toBe(
      'state_invalid',
    );
    // The right state, shown by another browser (no nonce cookie): refused, and spent for everyone.
    const other = browser();
    const res2 = await other.get(back.pathname + back.search);
    expect(new URL(res2.headers.location as string, ORIGIN).searchParams.get('oidc_error')).toBe(
      'state_invalid',
    );
    const res3 = await b.get(back.pathname + back.search);
    expect(new URL(res3.headers.location as string, ORIGIN).searchParams.get('oidc_error')).toBe(
      'state_invalid',
    );
  });

  it('refuses an id_token whose nonce is not the one this sign-in sent', async () => {
    const b = browser();
    const to = await callback(b, 'corp', 'alice-sub', {
      tamper: (u) => {
        u.searchParams.set('nonce', 'not-the-nonce-we-stored');
        return u;
      },
    });
    expect(to.searchParams.get('oidc_error')).toBe('provider_rejected');
    expect(to.searchParams.has('oidc_ticket')).toBe(false);
    const { rows } = await t.db.query<{ changes: Record<string, unknown> }>(
      `SELECT changes FROM activity_logs WHERE action = 'auth.login_failed' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]!.changes).toMatchObject({ method: 'oidc', reason: 'nonce' });
  });

  it('a made-up or malformed ticket is a 422, and an unknown provider a 404', async () => {
    const b = browser();
    expect((await b.post('/api/v1/oidc/login', { ticket: 'x'.repeat(43) })).statusCode).toBe(422);
    expect((await b.post('/api/v1/oidc/login', { ticket: 'x'.repeat(500) })).statusCode).toBe(422);
    expect((await b.post('/api/v1/oidc/login', {})).statusCode).toBe(422);
    expect((await b.get('/api/v1/oidc/nobody/auth')).statusCode).toBe(404);
    expect((await b.get('/api/v1/oidc/BAD%20ID/auth')).statusCode).toBe(404);
  });

  it('an href that is not a same-origin path is dropped', async () => {
    const to = await callback(browser(), 'corp', 'alice-sub', { href: '//evil.example/x' });
    expect(to.searchParams.has('href')).toBe(false);
  });

  it('an unreachable provider sends the browser back with a message, never a 5xx', async () => {
    expect(
      (
        await saveLogin({
          oidc_providers: [
            ...(await providers()),
            { id: 'gone', label: 'Gone', issuer: 'http://127.0.0.1:9', client_id: 'c' },
          ],
        })
      ).statusCode,
    ).toBe(200);
    const res = await browser().get('/api/v1/oidc/gone/auth');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?oidc_error=unavailable');
  });
});

describe('binding', () => {
  it('binds from the account area, lists it, refuses a second binding and unbinds', async () => {
    await createUser('oidc_frank');
    idp.addAccount({ sub: 'frank-sub', email: 'frank@corp.test' });
    const b = browser();
    const token = await passwordToken('oidc_frank', b);
    expect((await bind(b, token, 'corp', 'frank-sub')).search).toBe('?oidc_bound=corp');
    const list = await b.get('/api/v1/user/oidc', token);
    expect(list.json().data.find((p: { id: string }) => p.id === 'corp')).toMatchObject({
      bound: true,
      email: 'frank@corp.test',
    });
    expect((await b.post('/api/v1/user/oidc/corp/bind', {}, token)).statusCode).toBe(409);
    // The same subject cannot be bound to a second account.
    await createUser('oidc_frank2');
    const other = browser();
    const to = await bind(other, await passwordToken('oidc_frank2', other), 'corp', 'frank-sub');
    expect(to.pathname).toBe('/account/security');
    expect(to.searchParams.get('oidc_error')).toBe('already_linked');

    const del = await t.request({
      method: 'DELETE',
      url: '/api/v1/user/oidc/corp',
      token,
      remoteAddress: b.ip,
    });
    expect(del.statusCode).toBe(200);
    expect((await t.request({ method: 'DELETE', url: '/api/v1/user/oidc/corp', token })).statusCode).toBe(
      404,
    );
    expect((await callback(browser(), 'corp', 'frank-sub')).searchParams.get('oidc_error')).toBe(
      'not_linked',
    );
  });

  it('an account without a password keeps its only binding', async () => {
    idp.addAccount({ sub: 'gina-sub', preferred_username: 'gina' });
    const b = browser();
    const to = await callback(b, 'auto', 'gina-sub');
    const token = (await b.post('/api/v1/oidc/login', { ticket: to.searchParams.get('oidc_ticket')! })).json()
      .data.access_token;
    const del = await t.request({ method: 'DELETE', url: '/api/v1/user/oidc/auto', token });
    expect(del.statusCode).toBe(422);
  });
});

async function providers() {
  const token = await t.adminToken();
  return (await t.request({ url: '/api/v1/settings/login', token })).json().data.oidc_providers as Record<
    string,
    unknown
  >[];
}
