import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { closeMailTransports } from '../../server/mail/mailer.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// Issue 12, items 4 and 5: sign-in windows keyed on the resolved account and counted before the password
// is checked, a per-account ceiling across addresses (429 + Retry-After, no permanent lockout, reset by
// code still works), and registration that checks the code before telling whether an address is taken.
// A real SMTP server on loopback carries the codes.

let t: TestApp;
let smtp: TestSmtp;
let seq = 0;
const nextIp = () => `10.12.${Math.floor(++seq / 250)}.${(seq % 250) + 1}`;
const PASSWORD = 'amber-heron-counts-stars';

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ smtpUrl: smtp.url, dataDir: `/tmp/admin-security-accounts-${process.pid}` });
  await t.request({
    method: 'POST',
    url: '/api/v1/settings/login',
    token: await t.adminToken(),
    payload: { registration: true, methods: ['password', 'code'], wechat_enabled: false },
  });
});
afterAll(async () => {
  await t.close();
  closeMailTransports();
  await smtp.close();
});

async function createUser(username: string, email: string, phone: string): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, email, phone, password_hash) VALUES ($1, $1, $2, $3, $4) RETURNING id`,
    [username, email, phone, await hashPassword(PASSWORD)],
  );
  return rows[0]!.id;
}

function post(url: string, payload: Record<string, unknown>, ip = nextIp()) {
  return t.request({
    method: 'POST',
    url: `/api/v1/user/${url}`,
    payload,
    remoteAddress: ip,
    headers: { 'accept-language': 'en' },
  });
}
const login = (username: string, password: string, ip?: string) => post('login', { username, password }, ip);

/** Password checks the server ran for a user, as the activity log records them. */
async function checkedPasswords(userId: string): Promise<number> {
  const { rows } = await t.db.query<{ n: string }>(
    `SELECT count(*)::text AS n FROM activity_logs
      WHERE action = 'auth.login_failed' AND subject_id = $1 AND changes ->> 'reason' = 'wrong_password'`,
    [userId],
  );
  return Number(rows[0]!.n);
}

describe('failed sign-in windows', () => {
  it('username, email and phone of one account share one window of five', async () => {
    await createUser('shared', 'shared@example.com', '13700000001');
    const ip = nextIp();
    const statuses: number[] = [];
    for (const name of [
      'shared',
      'SHARED@example.com',
      '13700000001',
      'Shared',
      'shared@example.com',
      '13700000001',
    ])
      statuses.push((await login(name, 'not-the-password', ip)).statusCode);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    // Right password or not, the window holds.
    const blocked = await login('13700000001', PASSWORD, ip);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('an unknown identifier is keyed on its normalised form', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (const name of ['Ghost', 'ghost', ' GHOST ', 'gHoSt', 'ghost ', 'GHOST'])
      statuses.push((await login(name, 'whatever-password', ip)).statusCode);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
  });

  it('25 parallel wrong passwords get exactly 5 checked', async () => {
    const userId = await createUser('racer', 'racer@example.com', '13700000002');
    const ip = nextIp();
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) => login('racer', `wrong-password-${i}`, ip)),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 422)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    expect(await checkedPasswords(userId)).toBe(5);
  });

  it('ten addresses together check at most 10 passwords per 15 minutes for one account (429 with Retry-After)', async () => {
    const userId = await createUser('target', 'target@example.com', '13700000003');
    const statuses: number[] = [];
    let retryAfter = 0;
    for (let address = 0; address < 10; address++) {
      const ip = nextIp();
      for (let i = 0; i < 5; i++) {
        const res = await login('target', `guess-${address}-${i}`, ip);
        statuses.push(res.statusCode);
        if (res.statusCode === 429) retryAfter = Number(res.headers['retry-after']);
      }
    }
    expect(statuses.filter((c) => c === 422)).toHaveLength(10);
    expect(await checkedPasswords(userId)).toBe(10);
    // The ceiling's window, not the per-address minute: more than a minute, at most 15.
    expect(retryAfter).toBeGreaterThan(60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Even the right password waits, from a fresh address...
    expect((await login('target', PASSWORD)).statusCode).toBe(429);

    // ...but there is no permanent lockout: the owner resets by code and signs in at once.
    expect(
      (await post('captcha', { channel: 'email', to: 'target@example.com', scene: 'reset' })).statusCode,
    ).toBe(200);
    const captcha = await smtp.nextCode('target@example.com');
    const fresh = 'a fresh passphrase for target';
    const reset = await post('reset', {
      channel: 'email',
      to: 'target@example.com',
      captcha,
      password: fresh,
      password_confirmation: fresh,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login('target', fresh)).statusCode).toBe(200);
  });

  it('the ceiling is a window: once it passes, the account signs in again', async () => {
    await createUser('patient', 'patient@example.com', '13700000004');
    for (let i = 0; i < 11; i++) await login('patient', `guess-${i}`);
    expect((await login('patient', PASSWORD)).statusCode).toBe(429);
    await t.db.query(`UPDATE rate_limits SET reset_at = now() - interval '1 second'`);
    expect((await login('patient', PASSWORD)).statusCode).toBe(200);
  });

  it('successful sign-ins do not use up the ceiling', async () => {
    await createUser('regular', 'regular@example.com', '13700000005');
    for (let i = 0; i < 12; i++) expect((await login('regular', PASSWORD)).statusCode).toBe(200);
  });
});

describe('registration', () => {
  const register = (email: string, username: string, captcha: string) =>
    post('register', { username, password: PASSWORD, password_confirmation: PASSWORD, email, captcha });

  it('answers a taken and a new address the same until the code proves it', async () => {
    await createUser('owner', 'owner@example.com', '13700000006');
    const taken = await register('owner@example.com', 'newcomer1', '123456');
    const fresh = await register('nobody-yet@example.com', 'newcomer2', '123456');
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual(fresh.json());
    expect(taken.json().errors).toEqual({ captcha: ['The captcha is wrong or has expired'] });
  });

  it('a proven taken address gets 409 (the code was sent to its owner)', async () => {
    await createUser('owner2', 'owner2@example.com', '13700000007');
    expect(
      (await post('captcha', { channel: 'email', to: 'owner2@example.com', scene: 'register' })).statusCode,
    ).toBe(200);
    const captcha = await smtp.nextCode('owner2@example.com');
    const res = await register('owner2@example.com', 'newcomer3', captcha);
    expect(res.statusCode).toBe(409);
    expect(Object.keys(res.json().errors)).toEqual(['email']);
  });
});
