import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { generate } from 'otplib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACT_PATHS } from '../../server/core/logger.ts';
import { hashPassword } from '../../server/credentials/password.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { signInAtIssuer, startIssuer, type TestIssuer } from '../helpers/oidc-issuer.ts';
import { softPasskey } from '../helpers/softPasskey.ts';

/**
 * Issue 31, item 7: the review of the whole sign-in surface, as regression tests. Every flow of the issue is
 * driven through HTTP with the server's log captured at trace level (production redaction), then no secret
 * it handled (passwords, TOTP secrets and codes, recovery codes, mfa and enrolment tokens, passkey
 * challenges, OpenID codes, states, tickets and the client secret, API tokens) may appear in a log line or
 * the activity log. Alongside: enumeration (unknown, wrong and disabled answer alike) and replay.
 */
const ORIGIN = 'http://admin.test';
const PASSWORD = 'amber-falcon-reads-maps';
const lines: string[] = [];
const secrets: string[] = [PASSWORD];
let t: TestApp;
let idp: TestIssuer;
let ipSeq = 0;
const nextIp = () => `10.77.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

beforeAll(async () => {
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, capture);
  idp = await startIssuer({ redirectUris: [`${ORIGIN}/api/v1/oidc/corp/callback`] });
  secrets.push(idp.clientSecret);
  t = await createTestApp({ publicOrigin: ORIGIN }, { logger });
  const token = await t.adminToken();
  const current = (await t.request({ url: '/api/v1/settings/login', token })).json().data;
  delete current.wechat_app_secret_set;
  const saved = await t.request({
    method: 'POST',
    url: '/api/v1/settings/login',
    token,
    payload: {
      ...current,
      oidc_providers: [
        {
          id: 'corp',
          label: 'Corp',
          issuer: idp.issuer,
          client_id: idp.clientId,
          client_secret: idp.clientSecret,
          auto_create: true,
        },
      ],
    },
  });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

async function createUser(username: string, { state = true } = {}): Promise<string> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, state, password_hash) VALUES ($1, $1, $2, $3) RETURNING id`,
    [username, state, await hashPassword(PASSWORD)],
  );
  return rows[0]!.id;
}

function call(opts: InjectOptions & { token?: string; ip?: string }) {
  const { ip = '127.0.0.1', ...rest } = opts;
  return t.request({ remoteAddress: ip, headers: { 'accept-language': 'en' }, ...rest });
}
const post = (url: string, payload: Record<string, unknown>, extra: { token?: string; ip?: string } = {}) =>
  call({ method: 'POST', url, payload, ...extra });

describe('the sign-in surface', () => {
  it('logs no secret of any flow: password, TOTP, recovery, passkey, OpenID, API token', async () => {
    const ip = nextIp();
    await createUser('sec_totp');
    // Password, then TOTP enrolment.
    const first = await post('/api/v1/user/login', { username: 'sec_totp', password: PASSWORD }, { ip });
    const token = first.json().data.access_token as string;
    secrets.push(token);
    const start = await post('/api/v1/user/2fa/totp', {}, { token, ip });
    const secret = start.json().data.secret as string;
    secrets.push(secret);
    const code = await generate({ secret });
    secrets.push(code);
    const confirm = await post('/api/v1/user/2fa/totp/confirm', { code }, { token, ip });
    const recoveryCodes = confirm.json().data.recovery_codes as string[];
    secrets.push(...recoveryCodes);
    // Two-step sign-in with a recovery code (the current step's code was spent on the enrolment).
    const step = await post('/api/v1/user/login', { username: 'sec_totp', password: PASSWORD }, { ip });
    const mfaToken = step.json().data.mfa_token as string;
    secrets.push(mfaToken);
    const second = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: mfaToken, recovery_code: recoveryCodes[0] },
      { ip },
    );
    expect(second.statusCode).toBe(200);
    secrets.push(second.json().data.access_token);

    // A passkey registered and used to sign in.
    const key = softPasskey(ORIGIN);
    const regOptions = await post('/api/v1/user/passkeys/options', {}, { token, ip });
    secrets.push(regOptions.json().data.challenge);
    const registered = await post(
      '/api/v1/user/passkeys',
      { name: 'Laptop', response: key.register(regOptions.json().data) },
      { token, ip },
    );
    expect(registered.statusCode, registered.body).toBe(201);
    const loginOptions = await post('/api/v1/user/login/passkey/options', {}, { ip });
    secrets.push(loginOptions.json().data.challenge);
    const byKey = await post(
      '/api/v1/user/login/passkey',
      { response: key.authenticate(loginOptions.json().data), remember: false },
      { ip },
    );
    expect(byKey.statusCode, byKey.body).toBe(200);
    secrets.push(byKey.json().data.access_token);

    // A personal API token (of the administrator: a token holds a part of its owner's permissions).
    const adminToken = await t.adminToken();
    const created = await post(
      '/api/v1/user/tokens',
      {
        name: 'script',
        permissions: ['system.users.staff'],
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
      { token: adminToken, ip },
    );
    expect(created.statusCode, created.body).toBe(200);
    secrets.push(created.json().data.token);

    // OpenID Connect: auth, the provider, the callback (code and state in its URL), the app's page with the
    // ticket in its address, the ticket's sign-in.
    idp.addAccount({ sub: 'sec-sub', preferred_username: 'sec_oidc' });
    const auth = await call({ url: '/api/v1/oidc/corp/auth', ip });
    const cookies = Object.fromEntries(auth.cookies.map((c) => [c.name, c.value]));
    const back = await signInAtIssuer(auth.headers.location as string, 'sec-sub');
    secrets.push(back.searchParams.get('code')!, back.searchParams.get('state')!);
    const callback = await call({ url: back.pathname + back.search, cookies, ip });
    const to = new URL(callback.headers.location as string, ORIGIN);
    const ticket = to.searchParams.get('oidc_ticket')!;
    expect(ticket).toBeTruthy();
    secrets.push(ticket);
    await call({ url: to.pathname + to.search, ip });
    const oidcLogin = await post('/api/v1/oidc/login', { ticket }, { ip });
    expect(oidcLogin.statusCode).toBe(200);
    secrets.push(oidcLogin.json().data.access_token);

    expect(lines.some((l) => l.includes('/api/v1/oidc/corp/callback'))).toBe(true);
    expect(lines.some((l) => l.includes('oidc_ticket=[redacted]'))).toBe(true);
    const logText = lines.join('\n');
    const { rows } = await t.db.query<{ changes: unknown }>('SELECT changes FROM activity_logs');
    const activityText = JSON.stringify(rows);
    for (const value of secrets.filter((s) => s && s.length >= 6)) {
      expect(logText, 'a secret in the log').not.toContain(value);
      expect(activityText, 'a secret in the activity log').not.toContain(value);
    }
  });

  it('answers an unknown account, a wrong password and a disabled account alike', async () => {
    await createUser('sec_known');
    await createUser('sec_disabled', { state: false });
    const answers = await Promise.all(
      [
        { username: 'sec_nobody', password: PASSWORD },
        { username: 'sec_known', password: 'wrong-wrong-wrong' },
        { username: 'sec_disabled', password: PASSWORD },
      ].map(async (body) => {
        const res = await post('/api/v1/user/login', body, { ip: nextIp() });
        return { status: res.statusCode, body: res.json() };
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    // The OpenID ticket: unknown and spent read the same (no hint which tickets ever existed).
    const unknown = await post('/api/v1/oidc/login', { ticket: 'a'.repeat(43) }, { ip: nextIp() });
    expect(unknown.json()).toEqual({
      code: 422,
      message: expect.any(String),
      data: null,
      errors: { ticket: ['This sign-in has expired; please sign in again'] },
    });
  });

  it('never accepts an mfa_token, an enrolment token or a ticket twice', async () => {
    const ip = nextIp();
    const userId = await createUser('sec_replay');
    const token = (
      await post('/api/v1/user/login', { username: 'sec_replay', password: PASSWORD }, { ip })
    ).json().data.access_token as string;
    const secret = (await post('/api/v1/user/2fa/totp', {}, { token, ip })).json().data.secret as string;
    const codes = (
      await post('/api/v1/user/2fa/totp/confirm', { code: await generate({ secret }) }, { token, ip })
    ).json().data.recovery_codes as string[];
    const mfaToken = (
      await post('/api/v1/user/login', { username: 'sec_replay', password: PASSWORD }, { ip })
    ).json().data.mfa_token as string;
    const once = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: mfaToken, recovery_code: codes[0] },
      { ip },
    );
    expect(once.statusCode).toBe(200);
    const twice = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: mfaToken, recovery_code: codes[1] },
      { ip },
    );
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.mfa_token).toBeDefined();
    // The spent recovery code is refused with a fresh token too.
    const again = (
      await post('/api/v1/user/login', { username: 'sec_replay', password: PASSWORD }, { ip })
    ).json().data.mfa_token as string;
    const reused = await post(
      '/api/v1/user/login/2fa',
      { mfa_token: again, recovery_code: codes[0] },
      { ip },
    );
    expect(reused.statusCode).toBe(422);
    expect(userId).toBeTruthy();
  });
});
