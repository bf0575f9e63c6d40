import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { softPasskey } from '../helpers/softPasskey.ts';

// Passkeys through the API with a software authenticator (tests/helpers/softPasskey.ts); the browser test
// (tests/e2e/passkeys.e2e.ts) does the same with Chromium's virtual authenticator.
let t: TestApp;
let ipSeq = 0;
const nextIp = () => `10.32.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;
const PASSWORD = 'lunar-otter-plays-cello';
// app.inject sends Host: localhost:80, so the page's origin is http://localhost.
const ORIGIN = 'http://localhost';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: unknown,
  token = '',
  ip = '127.0.0.1',
) {
  return t.request({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    remoteAddress: ip,
    headers: { 'accept-language': 'en', 'user-agent': 'vitest-agent' },
    ...(token ? { token } : {}),
  });
}

async function userWithToken(username: string, ip: string): Promise<string> {
  await t.db.query(`INSERT INTO users (username, name, state, password_hash) VALUES ($1, $1, true, $2)`, [
    username,
    await hashPassword(PASSWORD),
  ]);
  return (await call('POST', '/api/v1/user/login', { username, password: PASSWORD }, '', ip)).json().data
    .access_token;
}

async function addPasskey(token: string, name: string, ip: string) {
  const key = softPasskey(ORIGIN);
  const options = (await call('POST', '/api/v1/user/passkeys/options', undefined, token, ip)).json().data;
  const res = await call(
    'POST',
    '/api/v1/user/passkeys',
    { name, response: key.register(options) },
    token,
    ip,
  );
  expect(res.statusCode, res.body).toBe(201);
  return { key, passkey: res.json().data };
}

async function passkeyLogin(
  key: ReturnType<typeof softPasskey>,
  { mfaToken, ip, verified = true }: { mfaToken?: string; ip: string; verified?: boolean },
) {
  const body = mfaToken ? { mfa_token: mfaToken } : {};
  const options = (await call('POST', '/api/v1/user/login/passkey/options', body, '', ip)).json().data;
  return call(
    'POST',
    '/api/v1/user/login/passkey',
    { ...body, response: key.authenticate(options, { verified }) },
    '',
    ip,
  );
}

describe('passkeys', () => {
  it('registers several, lists, renames and deletes them', async () => {
    const ip = nextIp();
    const token = await userWithToken('pk1', ip);
    const { passkey: first } = await addPasskey(token, 'Laptop', ip);
    await addPasskey(token, 'Phone', ip);
    const list = (await call('GET', '/api/v1/user/passkeys', undefined, token, ip)).json().data;
    expect(list.map((p: { name: string }) => p.name)).toEqual(['Laptop', 'Phone']);
    expect(list[0]).toEqual({
      id: first.id,
      name: 'Laptop',
      created_at: expect.any(String),
      last_used_at: null,
    });
    const renamed = await call(
      'PATCH',
      `/api/v1/user/passkeys/${first.id}`,
      { name: 'Work laptop' },
      token,
      ip,
    );
    expect(renamed.json().data.name).toBe('Work laptop');
    expect((await call('DELETE', `/api/v1/user/passkeys/${first.id}`, undefined, token, ip)).statusCode).toBe(
      200,
    );
    expect((await call('DELETE', `/api/v1/user/passkeys/${first.id}`, undefined, token, ip)).statusCode).toBe(
      404,
    );
    // Another user's passkey is a 404.
    const other = await userWithToken('pk1b', ip);
    expect(
      (await call('PATCH', `/api/v1/user/passkeys/${list[1].id}`, { name: 'x' }, other, ip)).statusCode,
    ).toBe(404);
    expect((await call('GET', '/api/v1/user/2fa', undefined, token, ip)).json().data.passkeys).toBe(1);
  });

  it('a registration answer is accepted once, for its own challenge', async () => {
    const ip = nextIp();
    const token = await userWithToken('pk2', ip);
    const key = softPasskey(ORIGIN);
    const options = (await call('POST', '/api/v1/user/passkeys/options', undefined, token, ip)).json().data;
    const response = key.register(options);
    expect((await call('POST', '/api/v1/user/passkeys', { name: 'A', response }, token, ip)).statusCode).toBe(
      201,
    );
    const again = await call('POST', '/api/v1/user/passkeys', { name: 'A', response }, token, ip);
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.response).toEqual(['The passkey could not be verified; please try again']);
    // Signed for another origin: refused.
    const options2 = (await call('POST', '/api/v1/user/passkeys/options', undefined, token, ip)).json().data;
    const forged = softPasskey('http://evil.example').register(options2);
    expect(
      (await call('POST', '/api/v1/user/passkeys', { name: 'B', response: forged }, token, ip)).statusCode,
    ).toBe(422);
    // Garbage never reaches a 5xx.
    const junk = { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'not-base64-json' } };
    expect(
      (await call('POST', '/api/v1/user/passkeys', { name: 'C', response: junk }, token, ip)).statusCode,
    ).toBe(422);
  });

  it('signs in with a passkey alone (user verified), and refuses one that did not verify the user', async () => {
    const ip = nextIp();
    const token = await userWithToken('pk3', ip);
    const { key } = await addPasskey(token, 'Key', ip);
    const res = await passkeyLogin(key, { ip });
    expect(res.statusCode, res.body).toBe(200);
    const session = res.json().data.access_token as string;
    expect((await call('GET', '/api/v1/user/profile', undefined, session, ip)).json().data.username).toBe(
      'pk3',
    );
    expect((await passkeyLogin(key, { ip, verified: false })).statusCode).toBe(422);
    const list = (await call('GET', '/api/v1/user/passkeys', undefined, token, ip)).json().data;
    expect(list[0].last_used_at).not.toBeNull();
    // An assertion replayed (its challenge spent) is refused.
    const options = (await call('POST', '/api/v1/user/login/passkey/options', {}, '', ip)).json().data;
    const response = key.authenticate(options);
    expect((await call('POST', '/api/v1/user/login/passkey', { response }, '', ip)).statusCode).toBe(200);
    expect((await call('POST', '/api/v1/user/login/passkey', { response }, '', ip)).statusCode).toBe(422);
  });

  it('a user with a passkey gets the second step after the password, finished with the passkey', async () => {
    const ip = nextIp();
    const token = await userWithToken('pk4', ip);
    const { key } = await addPasskey(token, 'Key', ip);
    const first = (
      await call('POST', '/api/v1/user/login', { username: 'pk4', password: PASSWORD }, '', ip)
    ).json().data;
    expect(first).toEqual({ mfa_required: true, mfa_token: expect.any(String), methods: ['passkey'] });
    const done = await passkeyLogin(key, { mfaToken: first.mfa_token, ip, verified: false });
    expect(done.statusCode, done.body).toBe(200);
    // The mfa token served its one sign-in.
    expect((await passkeyLogin(key, { mfaToken: first.mfa_token, ip })).statusCode).toBe(422);
    // Another user's passkey cannot finish this user's second step.
    const otherToken = await userWithToken('pk4b', ip);
    const { key: otherKey } = await addPasskey(otherToken, 'Other', ip);
    const second = (
      await call('POST', '/api/v1/user/login', { username: 'pk4', password: PASSWORD }, '', ip)
    ).json().data;
    expect((await passkeyLogin(otherKey, { mfaToken: second.mfa_token, ip })).statusCode).toBe(422);
  });
});
