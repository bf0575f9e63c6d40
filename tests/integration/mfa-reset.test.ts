import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/credentials/password.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';

// Issue 31, item 3: an administrator resets another user's second factors; audited, the user told by mail
// over a real SMTP server on loopback.
let t: TestApp;
let smtp: TestSmtp;
const PASSWORD = 'lunar-otter-plays-cello';

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

function call(
  method: 'POST' | 'DELETE' | 'GET',
  url: string,
  token: string,
  payload?: Record<string, unknown>,
) {
  return t.request({
    method,
    url,
    token,
    headers: { 'accept-language': 'en', 'user-agent': 'vitest-agent' },
    ...(payload ? { payload } : {}),
  });
}

describe('administrator reset of second factors', () => {
  it('drops the authenticator, audits it and mails the user; the password alone signs in again', async () => {
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO users (username, name, email, state, password_hash) VALUES ('lost', 'lost', 'lost@example.test', true, $1)
       RETURNING id`,
      [await hashPassword(PASSWORD)],
    );
    const userId = rows[0]!.id;
    const login = () => call('POST', '/api/v1/user/login', '', { username: 'lost', password: PASSWORD });
    const token = (await login()).json().data.access_token as string;
    const { secret } = (await call('POST', '/api/v1/user/2fa/totp', token, {})).json().data;
    expect(
      (await call('POST', '/api/v1/user/2fa/totp/confirm', token, { code: await generate({ secret }) }))
        .statusCode,
    ).toBe(200);
    expect((await login()).json().data.mfa_required).toBe(true);

    // The user cannot reset their own through this route (no permission), an administrator can.
    expect((await call('DELETE', `/api/v1/user/users/${userId}/2fa`, token)).statusCode).toBe(403);
    const admin = await t.adminToken();
    expect((await call('DELETE', `/api/v1/user/users/${userId}/2fa`, admin)).statusCode).toBe(200);
    expect((await call('DELETE', '/api/v1/user/users/999999/2fa', admin)).statusCode).toBe(404);

    expect((await login()).json().data.access_token).toBeTruthy();
    const audit = await t.db.query<{ action: string; subject_id: string }>(
      `SELECT action, subject_id::text FROM activity_logs WHERE action = 'auth.mfa_reset'`,
    );
    expect(audit.rows).toEqual([{ action: 'auth.mfa_reset', subject_id: userId }]);
    const mail = await smtp.nextMail('lost@example.test');
    expect(mail.subject).toContain('two-step verification was reset');
    expect(mail.text).toContain('lost');
    expect(mail.text).not.toContain(secret);
  });
});
