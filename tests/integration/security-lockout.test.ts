import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACT_PATHS } from '../../server/core/logger.ts';
import { hashPassword } from '../../server/credentials/password.ts';
import { closeMailTransports } from '../../server/mail/mailer.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// Issue 27, items 2, 4 and 6 (a pen-test's findings): strangers cannot lock an account's known devices out
// (a device cookie set at sign-in gives the device its own failure window instead of the per-account
// ceiling), a reset by code clears the ceiling, the signed-in password change counts in the same windows as
// sign-in, and registration checks the code before saying that a username is taken.

let t: TestApp;
let smtp: TestSmtp;
let seq = 0;
const nextIp = () => `10.27.${Math.floor(++seq / 250)}.${(seq % 250) + 1}`;
const PASSWORD = 'copper-finch-reads-maps';
const COOKIE = 'login_device';
const lines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, capture);
  // Behind a proxy (TRUST_PROXY), so that `X-Forwarded-Proto: https` makes a request https.
  t = await createTestApp(
    { smtpUrl: smtp.url, dataDir: `/tmp/admin-security-lockout-${process.pid}`, trustProxy: true },
    { logger },
  );
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

async function createUser(username: string): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, email, password_hash) VALUES ($1, $1, $2, $3) RETURNING id`,
    [username, `${username}@example.com`, await hashPassword(PASSWORD)],
  );
  return rows[0]!.id;
}

function post(
  url: string,
  payload: Record<string, unknown>,
  { ip = nextIp(), device, token }: { ip?: string; device?: string; token?: string } = {},
) {
  return t.request({
    method: 'POST',
    url: `/api/v1/user/${url}`,
    payload,
    remoteAddress: ip,
    token,
    ...(device === undefined ? {} : { cookies: { [COOKIE]: device } }),
    headers: { 'accept-language': 'en' },
  });
}
const login = (username: string, password: string, opts?: { ip?: string; device?: string }) =>
  post('login', { username, password }, opts);

/** Signs in with the right password from a fresh address; answers the device cookie it set and the token. */
async function signInOnDevice(
  username: string,
  password = PASSWORD,
  device?: string,
): Promise<{ device: string; token: string }> {
  const res = await login(username, password, { device });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.find((c) => c.name === COOKIE);
  expect(cookie).toBeDefined();
  return { device: cookie!.value, token: res.json().data.access_token as string };
}

/** Strangers from `count` fresh addresses each try one wrong password. */
async function strangersTry(username: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await login(username, `stranger-guess-${i}`)).statusCode);
  return statuses;
}

/** Ends every rate-limit window, as if fifteen minutes had passed. */
async function endWindows() {
  await t.db.query(`UPDATE rate_limits SET reset_at = now() - interval '1 second'`);
}

describe('known devices (item 2)', () => {
  it('sets an HttpOnly, SameSite=Strict device cookie for /api that names no account in clear', async () => {
    const res = await login(ADMIN.username, ADMIN.password);
    expect(res.statusCode).toBe(200);
    const cookie = res.cookies.find((c) => c.name === COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api' });
    expect(cookie.secure).toBeFalsy(); // plain http here; Secure when the request is https
    expect(cookie.maxAge).toBeGreaterThanOrEqual(180 * 24 * 60 * 60);
    // A random device id and one HMAC tag per account: nothing of the account's id or name.
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);
    expect(cookie.value).not.toContain(ADMIN.username);
    expect(res.json().data).not.toHaveProperty('userId');
    // A second sign-in on the same device keeps its id and its one tag.
    const again = await login(ADMIN.username, ADMIN.password, { device: cookie.value });
    expect(again.cookies.find((c) => c.name === COOKIE)!.value).toBe(cookie.value);
  });

  it('marks the cookie Secure when the request is https', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: ADMIN.username, password: ADMIN.password },
      remoteAddress: nextIp(),
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.cookies.find((c) => c.name === COOKIE)).toMatchObject({ secure: true, httpOnly: true });
  });

  it("strangers' wrong passwords shut out new devices but not the administrator's known device", async () => {
    const known = await signInOnDevice(ADMIN.username, ADMIN.password);
    const statuses = await strangersTry(ADMIN.username, 14);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(422));
    expect(statuses.slice(10)).toEqual(Array(4).fill(429));
    // A device that never signed in waits, right password or not...
    const fresh = await login(ADMIN.username, ADMIN.password);
    expect(fresh.statusCode).toBe(429);
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThan(60);
    // ...the owner's device signs in, from any address, at once.
    const owner = await login(ADMIN.username, ADMIN.password, { device: known.device });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(owner.json().data.access_token).toEqual(expect.any(String));
    await endWindows();
  });

  it('a known device has a limit of its own: 10 per 15 minutes, apart from the ceiling', async () => {
    await createUser('typist');
    const { device } = await signInOnDevice('typist');
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login('typist', `typo-${i}`, { device })).statusCode);
    expect(statuses).toEqual([...Array(10).fill(422), 429, 429]);
    const blocked = await login('typist', PASSWORD, { device });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(60);
    // The device's failures are not the account's: another (new) device still signs in.
    expect((await login('typist', PASSWORD)).statusCode).toBe(200);
    await endWindows();
    expect((await login('typist', PASSWORD, { device })).statusCode).toBe(200);
  });

  it('the per-address window (5 a minute per account and address) holds for a known device too', async () => {
    await createUser('hasty');
    const { device } = await signInOnDevice('hasty');
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await login('hasty', `typo-${i}`, { ip, device })).statusCode);
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
    expect((await login('hasty', PASSWORD, { ip, device })).statusCode).toBe(429);
    expect((await login('hasty', PASSWORD, { device })).statusCode).toBe(200);
  });

  it("a forged, unsigned, other account's or copied-to-another-id cookie is an unknown device", async () => {
    await createUser('victim');
    await createUser('mallory');
    const victim = await signInOnDevice('victim');
    const mallory = await signInOnDevice('mallory');
    await strangersTry('victim', 11);
    const [victimId, victimTag] = victim.device.split('.');
    const [malloryId, malloryTag] = mallory.device.split('.');
    const forged = [
      'not-a-device-cookie',
      `${'A'.repeat(22)}.${'B'.repeat(22)}`,
      victimId!, // the device id without its tag
      mallory.device, // signed, for another account
      `${malloryId}.${victimTag}`, // the victim's tag on another device id
      `${victimId}.${malloryTag}`,
      `${victim.device}x`,
    ];
    for (const device of forged)
      expect((await login('victim', PASSWORD, { device })).statusCode, device).toBe(429);
    expect((await login('victim', PASSWORD, { device: victim.device })).statusCode).toBe(200);
    await endWindows();
  });

  it('one cookie holds the devices of several accounts', async () => {
    await createUser('first');
    await createUser('second');
    const one = await signInOnDevice('first');
    const both = await signInOnDevice('second', PASSWORD, one.device);
    expect(both.device.split('.')).toHaveLength(3);
    expect(both.device.startsWith(one.device)).toBe(true);
    await strangersTry('first', 11);
    await strangersTry('second', 11);
    expect((await login('first', PASSWORD)).statusCode).toBe(429);
    expect((await login('second', PASSWORD)).statusCode).toBe(429);
    expect((await login('first', PASSWORD, { device: both.device })).statusCode).toBe(200);
    expect((await login('second', PASSWORD, { device: both.device })).statusCode).toBe(200);
    await endWindows();
  });

  it('a reset by code clears the ceiling for new devices', async () => {
    await createUser('forgetful');
    await strangersTry('forgetful', 11);
    expect((await login('forgetful', PASSWORD)).statusCode).toBe(429);
    expect(
      (await post('captcha', { channel: 'email', to: 'forgetful@example.com', scene: 'reset' })).statusCode,
    ).toBe(200);
    const captcha = await smtp.nextCode('forgetful@example.com');
    const fresh = 'a new passphrase for forgetful';
    const reset = await post('reset', {
      channel: 'email',
      to: 'forgetful@example.com',
      captcha,
      password: fresh,
      password_confirmation: fresh,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login('forgetful', fresh)).statusCode).toBe(200);
  });

  it("a reset by code from the owner's browser also ends that device's own window", async () => {
    await createUser('clumsy');
    const { device } = await signInOnDevice('clumsy');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await login('clumsy', `typo-${i}`, { device })).statusCode);
    expect(statuses.at(-1)).toBe(429);
    expect(
      (await post('captcha', { channel: 'email', to: 'clumsy@example.com', scene: 'reset' })).statusCode,
    ).toBe(200);
    const captcha = await smtp.nextCode('clumsy@example.com');
    const fresh = 'a new passphrase for clumsy';
    const reset = await post(
      'reset',
      { channel: 'email', to: 'clumsy@example.com', captcha, password: fresh, password_confirmation: fresh },
      { device },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await login('clumsy', fresh, { device })).statusCode).toBe(200);
  });

  it('never writes the device cookie to a log line', async () => {
    const { device } = await signInOnDevice(ADMIN.username, ADMIN.password);
    await login(ADMIN.username, ADMIN.password, { device });
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.join('\n')).not.toContain(device.split('.')[0]);
  });
});

describe('password change while signed in (item 4)', () => {
  const change = (token: string, oldPassword: string, opts: { device?: string } = {}) =>
    post(
      'password',
      {
        old_password: oldPassword,
        password: 'a different passphrase',
        password_confirmation: 'a different passphrase',
      },
      { token, ...opts },
    );

  it('counts wrong old passwords per account, whatever the address, in the sign-in ceiling', async () => {
    await createUser('stolen');
    // The session was taken to another machine: no device cookie there.
    const { token } = await signInOnDevice('stolen');
    const statuses: number[] = [];
    // Each try from a new address: the per-address limit of the route never applies.
    for (let i = 0; i < 12; i++) statuses.push((await change(token, `old-guess-${i}`)).statusCode);
    expect(statuses).toEqual([...Array(10).fill(422), 429, 429]);
    const blocked = await change(token, PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(60);
    // The same window as sign-in: a new device cannot sign in either.
    expect((await login('stolen', PASSWORD)).statusCode).toBe(429);
    await endWindows();
    expect((await change(token, PASSWORD)).statusCode).toBe(200);
  });

  it("shares the window with strangers' sign-ins, and the owner's known device keeps its own", async () => {
    await createUser('shared');
    const { token, device } = await signInOnDevice('shared');
    await strangersTry('shared', 8);
    expect((await change(token, 'old-guess-1')).statusCode).toBe(422);
    expect((await change(token, 'old-guess-2')).statusCode).toBe(422);
    expect((await change(token, 'old-guess-3')).statusCode).toBe(429);
    // On the device that signed in, the change is counted in that device's window.
    expect((await change(token, 'old-guess-4', { device })).statusCode).toBe(422);
    expect((await change(token, PASSWORD, { device })).statusCode).toBe(200);
    await endWindows();
  });
});

describe('registration (item 6)', () => {
  const register = (username: string, email: string, captcha: string) =>
    post('register', { username, password: PASSWORD, password_confirmation: PASSWORD, email, captcha });

  it('answers a taken and a free username the same until the code is right', async () => {
    await createUser('takenname');
    const taken = await register('takenname', 'someone-new@example.com', '000000');
    const free = await register('freename', 'someone-else@example.com', '000000');
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toEqual(free.json());
    expect(taken.json().errors).toEqual({ captcha: ['The captcha is wrong or has expired'] });
  });

  it('registering signs in on a known device', async () => {
    const email = 'newcomer@example.com';
    expect((await post('captcha', { channel: 'email', to: email, scene: 'register' })).statusCode).toBe(200);
    const res = await register('newcomer', email, await smtp.nextCode(email));
    expect(res.statusCode, res.body).toBe(200);
    const device = res.cookies.find((c) => c.name === COOKIE)!.value;
    await strangersTry('newcomer', 11);
    expect((await login('newcomer', PASSWORD)).statusCode).toBe(429);
    expect((await login('newcomer', PASSWORD, { device })).statusCode).toBe(200);
    await endWindows();
  });

  it('a right code then learns that the username is taken (409)', async () => {
    await createUser('takenname2');
    const email = 'proven@example.com';
    expect((await post('captcha', { channel: 'email', to: email, scene: 'register' })).statusCode).toBe(200);
    const res = await register('takenname2', email, await smtp.nextCode(email));
    expect(res.statusCode).toBe(409);
    expect(Object.keys(res.json().errors)).toEqual(['username']);
  });
});
