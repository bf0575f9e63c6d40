import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { ADMIN, createTestApp, type TestApp } from '../helpers/app.ts';
import { softPasskey } from '../helpers/softPasskey.ts';

// Issue 31, item 3: login.require_2fa. A covered user without a second factor signs in only to enrol one.
let t: TestApp;
const PASSWORD = 'lunar-otter-plays-cello';

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function post(url: string, payload: Record<string, unknown>, token = '') {
  return t.request({
    method: 'POST',
    url,
    payload,
    headers: { 'accept-language': 'en', 'user-agent': 'vitest-agent' },
    ...(token ? { token } : {}),
  });
}

async function setPolicy(policy: string): Promise<void> {
  const res = await post('/api/v1/settings/login', { require_2fa: policy }, await t.adminToken());
  expect(res.statusCode, res.body).toBe(200);
}

async function createUser(username: string, { staff }: { staff: boolean }): Promise<void> {
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO users (username, name, state, password_hash) VALUES ($1, $1, true, $2) RETURNING id`,
    [username, await hashPassword(PASSWORD)],
  );
  if (staff) await t.db.query(`INSERT INTO staff (user_id, name) VALUES ($1, $2)`, [rows[0]!.id, username]);
}

describe('login.require_2fa', () => {
  it('admins: an administrator without a factor gets an enrolment token good for enrolment alone', async () => {
    await setPolicy('admins');
    await createUser('plainstaff', { staff: true });
    // Not covered: a staff member who is no administrator signs in as before.
    const plain = await post('/api/v1/user/login', { username: 'plainstaff', password: PASSWORD });
    expect(plain.json().data.access_token).toBeTruthy();

    const first = await post('/api/v1/user/login', ADMIN);
    expect(first.statusCode).toBe(200);
    const step = first.json().data;
    expect(step).toEqual({
      mfa_enrolment_required: true,
      enrolment_token: expect.any(String),
      methods: ['totp', 'passkey'],
    });
    const enrol = step.enrolment_token as string;
    // Good for nothing else.
    expect((await t.request({ url: '/api/v1/user/profile', token: enrol })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/v1/user/users', token: enrol })).statusCode).toBe(401);

    expect((await t.request({ url: '/api/v1/user/2fa', token: enrol })).json().data.totp).toBe(false);
    const start = await post('/api/v1/user/2fa/totp', {}, enrol);
    expect(start.statusCode).toBe(200);
    const { secret } = start.json().data;
    const confirm = await post('/api/v1/user/2fa/totp/confirm', { code: await generate({ secret }) }, enrol);
    expect(confirm.statusCode, confirm.body).toBe(200);
    const answer = confirm.json().data;
    expect(answer.recovery_codes).toHaveLength(10);
    expect((await t.request({ url: '/api/v1/user/profile', token: answer.access_token })).statusCode).toBe(
      200,
    );
    // The enrolment token served its one enrolment.
    expect((await t.request({ url: '/api/v1/user/2fa', token: enrol })).statusCode).toBe(401);

    // From now on the administrator signs in in two steps.
    const next = (await post('/api/v1/user/login', ADMIN)).json().data;
    expect(next.mfa_required).toBe(true);
  });

  it('staff: covers every staff member, not users without a staff record', async () => {
    await setPolicy('staff');
    await createUser('staffer', { staff: true });
    await createUser('outsider', { staff: false });
    const staffer = (await post('/api/v1/user/login', { username: 'staffer', password: PASSWORD })).json()
      .data;
    expect(staffer.mfa_enrolment_required).toBe(true);
    const outsider = (await post('/api/v1/user/login', { username: 'outsider', password: PASSWORD })).json()
      .data;
    expect(outsider.access_token).toBeTruthy();
    await setPolicy('none');
    const after = (await post('/api/v1/user/login', { username: 'staffer', password: PASSWORD })).json().data;
    expect(after.access_token).toBeTruthy();
  });

  it('a covered user may enrol with a passkey instead: registering it spends the token and answers the session', async () => {
    await setPolicy('staff');
    await createUser('keyholder', { staff: true });
    const step = (await post('/api/v1/user/login', { username: 'keyholder', password: PASSWORD })).json()
      .data;
    expect(step.methods).toContain('passkey');
    const enrol = step.enrolment_token as string;

    // app.inject sends Host: localhost:80, so the page's origin is http://localhost.
    const key = softPasskey('http://localhost');
    const options = await post('/api/v1/user/passkeys/options', {}, enrol);
    expect(options.statusCode, options.body).toBe(200);
    const registered = await post(
      '/api/v1/user/passkeys',
      { name: 'Security key', response: key.register(options.json().data) },
      enrol,
    );
    expect(registered.statusCode, registered.body).toBe(201);
    const answer = registered.json().data;
    expect(answer).toMatchObject({ name: 'Security key', access_token: expect.any(String) });
    expect((await t.request({ url: '/api/v1/user/profile', token: answer.access_token })).statusCode).toBe(
      200,
    );
    // The sign-in's activity row says how the factor was enrolled.
    const { rows } = await t.db.query<{ changes: unknown }>(
      `SELECT a.changes FROM activity_logs a JOIN users u ON u.id = a.subject_id::bigint
        WHERE u.username = 'keyholder' AND a.action = 'auth.login'`,
    );
    expect(JSON.stringify(rows.map((r) => r.changes))).toContain('passkey_enrolled');

    // The token is spent: no second passkey, no TOTP, nothing else with it.
    expect((await post('/api/v1/user/passkeys/options', {}, enrol)).statusCode).toBe(401);
    expect((await post('/api/v1/user/2fa/totp', {}, enrol)).statusCode).toBe(401);
    // The passkey list stays for signed-in users: the enrolment token never reads it.
    expect((await t.request({ url: '/api/v1/user/passkeys', token: enrol })).statusCode).toBe(401);

    // From now on keyholder signs in in two steps, with the passkey as the second.
    const next = (await post('/api/v1/user/login', { username: 'keyholder', password: PASSWORD })).json()
      .data;
    expect(next).toMatchObject({ mfa_required: true, methods: expect.arrayContaining(['passkey']) });
    await setPolicy('none');
  });
});
