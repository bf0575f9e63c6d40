import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { purgeAuthRows } from '../../server/credentials/purge.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let ipSeq = 0;
/** Each test signs in from its own address, so per-address windows of one test never touch another. */
const nextIp = () => `10.31.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
const PASSWORD = 'lunar-otter-plays-cello';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function createUser(username: string): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, state, password_hash) VALUES ($1, $1, true, $2) RETURNING id`,
    [username, await hashPassword(PASSWORD)],
  );
  return rows[0]!.id;
}

function post(url: string, payload: Record<string, unknown>, { ip = '127.0.0.1', token = '' } = {}) {
  return t.request({
    method: 'POST',
    url,
    payload,
    remoteAddress: ip,
    headers: { 'accept-language': 'en', 'user-agent': 'vitest-agent' },
    ...(token ? { token } : {}),
  });
}

function login(username: string, ip: string) {
  return post('/api/v1/user/login', { username, password: PASSWORD }, { ip });
}

/** The code of the step `offset` steps from now (codes of past steps are refused once a newer one is used). */
function codeAt(secret: string, offset: number): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });
}

/** A user with TOTP on: the secret and the recovery codes (confirmed with the current step's code). */
async function enrolledUser(username: string) {
  const ip = nextIp();
  await createUser(username);
  const token = (await login(username, ip)).json().data.access_token as string;
  const start = await post('/api/v1/user/2fa/totp', {}, { ip, token });
  expect(start.statusCode).toBe(200);
  const { secret } = start.json().data;
  const confirm = await post(
    '/api/v1/user/2fa/totp/confirm',
    { code: await codeAt(secret, 0) },
    { ip, token },
  );
  expect(confirm.statusCode).toBe(200);
  return { secret, token, ip, recoveryCodes: confirm.json().data.recovery_codes as string[] };
}

describe('TOTP enrolment', () => {
  it('answers a secret, an otpauth URL and a QR code drawn as SVG; a wrong first code turns nothing on', async () => {
    const ip = nextIp();
    await createUser('enrol1');
    const token = (await login('enrol1', ip)).json().data.access_token as string;
    const start = await post('/api/v1/user/2fa/totp', {}, { ip, token });
    expect(start.statusCode).toBe(200);
    const data = start.json().data;
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data.otpauth_url).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    expect(data.otpauth_url).toContain(data.secret);
    expect(data.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const wrong = await post('/api/v1/user/2fa/totp/confirm', { code: '000000' }, { ip, token });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual(['The code is wrong or has already been used']);
    const status = await t.request({ url: '/api/v1/user/2fa', token });
    expect(status.json().data).toEqual({ totp: false, recovery_codes_left: 0, passkeys: 0 });
    expect((await login('enrol1', ip)).json().data.access_token).toBeTruthy();
  });

  it('turns on with a right code: ten distinct recovery codes, stored hashed; a second start is a 409', async () => {
    const { token, ip, recoveryCodes, secret } = await enrolledUser('enrol2');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const status = await t.request({ url: '/api/v1/user/2fa', token });
    expect(status.json().data).toEqual({ totp: true, recovery_codes_left: 10, passkeys: 0 });
    const { rows } = await t.db.query<{ code_hash: string }>(
      `SELECT code_hash FROM user_recovery_codes r JOIN users u ON u.id = r.user_id WHERE u.username = 'enrol2'`,
    );
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(recoveryCodes.some((c) => row.code_hash.includes(c.replace(/-/g, '')))).toBe(false);
    }
    expect((await post('/api/v1/user/2fa/totp', {}, { ip, token })).statusCode).toBe(409);
    // Nothing secret in the activity log.
    const log = await t.db.query<{ action: string; changes: unknown }>(
      `SELECT action, changes FROM activity_logs`,
    );
    expect(log.rows.map((r) => r.action)).toContain('auth.totp_enabled');
    const text = JSON.stringify(log.rows);
    expect(text).not.toContain(secret);
    for (const code of recoveryCodes) expect(text).not.toContain(code);
  });
});

describe('two-step sign-in', () => {
  it('answers mfa_required without a token, then a session for the right code; the code is not accepted twice', async () => {
    const { secret, ip } = await enrolledUser('two1');
    const first = await login('two1', ip);
    expect(first.statusCode).toBe(200);
    const step = first.json().data;
    expect(step).toEqual({
      mfa_required: true,
      mfa_token: expect.any(String),
      methods: ['totp', 'recovery'],
    });
    expect(first.headers['set-cookie'] ?? '').not.toContain('login_device');

    const code = await codeAt(secret, 1);
    const second = await post('/api/v1/user/login/2fa', { mfa_token: step.mfa_token, code }, { ip });
    expect(second.statusCode).toBe(200);
    const token = second.json().data.access_token as string;
    expect((await t.request({ url: '/api/v1/user/profile', token })).json().data.username).toBe('two1');
    expect(String(second.headers['set-cookie'])).toContain('login_device');

    // The mfa_token served its one sign-in.
    const again = await post('/api/v1/user/login/2fa', { mfa_token: step.mfa_token, code }, { ip });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.mfa_token).toEqual(['This sign-in has expired; please sign in again']);
    // The same code with a fresh mfa_token: used within its window, refused.
    const fresh = (await login('two1', ip)).json().data.mfa_token;
    const replay = await post('/api/v1/user/login/2fa', { mfa_token: fresh, code }, { ip });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.code).toEqual(['The code is wrong or has already been used']);
  });

  it('two requests racing with one code: exactly one signs in', async () => {
    const { secret, ip } = await enrolledUser('race1');
    const [a, b] = await Promise.all([login('race1', ip), login('race1', ip)]);
    const code = await codeAt(secret, 1);
    const answers = await Promise.all([
      post('/api/v1/user/login/2fa', { mfa_token: a.json().data.mfa_token, code }, { ip }),
      post('/api/v1/user/login/2fa', { mfa_token: b.json().data.mfa_token, code }, { ip }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });

  it('a recovery code signs in once, typed with or without dashes', async () => {
    const { ip, recoveryCodes } = await enrolledUser('recover1');
    const code = recoveryCodes[3]!;
    const mfa = (await login('recover1', ip)).json().data.mfa_token;
    const ok = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: mfa, recovery_code: code.toUpperCase().replace(/-/g, '') },
      { ip },
    );
    expect(ok.statusCode).toBe(200);
    const token = ok.json().data.access_token as string;
    expect((await t.request({ url: '/api/v1/user/2fa', token })).json().data.recovery_codes_left).toBe(9);
    const mfa2 = (await login('recover1', ip)).json().data.mfa_token;
    const reused = await post('/api/v1/user/login/2fa', { mfa_token: mfa2, recovery_code: code }, { ip });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.recovery_code).toEqual([
      'The recovery code is wrong or has already been used',
    ]);
  });

  it('an expired or unknown mfa_token is refused; a body with both or neither code is a 422', async () => {
    const { secret, ip } = await enrolledUser('expire1');
    const mfa = (await login('expire1', ip)).json().data.mfa_token;
    // Five minutes have passed (moved in the database rather than waited for).
    await t.db.query(`UPDATE mfa_tokens SET expires_at = now() - interval '1 second'`);
    const late = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: mfa, code: await codeAt(secret, 1) },
      { ip },
    );
    expect(late.statusCode).toBe(422);
    expect(late.json().errors.mfa_token).toBeDefined();
    const unknown = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: 'x'.repeat(43), code: '123456' },
      { ip },
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.mfa_token).toBeDefined();
    const both = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: mfa, code: '123456', recovery_code: 'aaaa-bbbb-cccc-dddd' },
      { ip },
    );
    expect(both.statusCode).toBe(422);
    const neither = await post('/api/v1/user/login/2fa', { mfa_token: mfa }, { ip });
    expect(neither.statusCode).toBe(422);
    expect(neither.json().errors.code).toEqual(['Enter either an authenticator code or a recovery code']);
  });

  it('codes are rate-limited like passwords: the sixth try in a minute is a 429, even with the right code', async () => {
    const { secret, ip } = await enrolledUser('limit1');
    const mfa = (await login('limit1', ip)).json().data.mfa_token;
    for (let i = 0; i < 5; i++) {
      const wrong = await post('/api/v1/user/login/2fa', { mfa_token: mfa, code: '000000' }, { ip });
      expect(wrong.statusCode).toBe(422);
    }
    const limited = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: mfa, code: await codeAt(secret, 1) },
      { ip },
    );
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // A right password from this address does not clear the code windows.
    const again = (await login('limit1', ip)).json().data.mfa_token;
    expect(
      (await post('/api/v1/user/login/2fa', { mfa_token: again, code: await codeAt(secret, 1) }, { ip }))
        .statusCode,
    ).toBe(429);
    // Another address still has its own window (the account ceiling is higher).
    const other = nextIp();
    const mfa3 = (await login('limit1', other)).json().data.mfa_token;
    expect(
      (
        await post(
          '/api/v1/user/login/2fa',
          { mfa_token: mfa3, code: await codeAt(secret, 1) },
          { ip: other },
        )
      ).statusCode,
    ).toBe(200);
  });
});

describe('turning TOTP off', () => {
  it('needs the password; afterwards the password alone signs in again', async () => {
    const { token, ip } = await enrolledUser('off1');
    const del = (password: string) =>
      t.request({
        method: 'DELETE',
        url: '/api/v1/user/2fa/totp',
        payload: { password },
        token,
        remoteAddress: ip,
        headers: { 'accept-language': 'en' },
      });
    const wrong = await del('not-the-password');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.password).toEqual(['The current password is incorrect']);
    expect((await t.request({ url: '/api/v1/user/2fa', token })).json().data.totp).toBe(true);
    expect((await del(PASSWORD)).statusCode).toBe(200);
    expect((await t.request({ url: '/api/v1/user/2fa', token })).json().data).toEqual({
      totp: false,
      recovery_codes_left: 0,
      passkeys: 0,
    });
    expect((await login('off1', ip)).json().data.access_token).toBeTruthy();
  });
});

describe('housekeeping', () => {
  it('purgeAuthRows deletes expired mfa tokens', async () => {
    const { ip } = await enrolledUser('purge1');
    await login('purge1', ip);
    await t.db.query(`UPDATE mfa_tokens SET expires_at = now() - interval '1 second'`);
    expect((await purgeAuthRows(t.db)).mfaTokens).toBeGreaterThan(0);
    expect((await t.db.query('SELECT 1 FROM mfa_tokens')).rows).toHaveLength(0);
  });
});
