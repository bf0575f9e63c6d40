import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailTransports } from '../../server/mail/mailer.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { eventually } from '../helpers/eventually.ts';

let t: TestApp;
let smtp: TestSmtp;
let seq = 0;
const nextIp = () => `10.1.${Math.floor(++seq / 250)}.${(seq % 250) + 1}`;
const nextEmail = (name = 'user') => `${name}${++seq}@example.com`;

const PASSWORD = 'violet-kayak-drums-42';

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ smtpUrl: smtp.url, dataDir: `/tmp/admin-auth-codes-${process.pid}` });
});
afterAll(async () => {
  await t.close();
  closeMailTransports();
  await smtp.close();
});

/** Ends every rate-limit window, as if a minute had passed. */
async function endWindows() {
  await t.db.query(`UPDATE rate_limits SET reset_at = now() - interval '1 second'`);
}

function post(url: string, payload: unknown, { ip = nextIp(), token }: { ip?: string; token?: string } = {}) {
  return t.request({
    method: 'POST',
    url: `/api/v1/user/${url}`,
    payload: payload as Record<string, unknown>,
    remoteAddress: ip,
    token,
    headers: { 'accept-language': 'en' },
  });
}

async function sendCode(
  body: { channel?: string; to: string; scene: string },
  opts: { ip?: string; token?: string } = {},
) {
  const res = await post('captcha', { channel: 'email', ...body }, opts);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

async function register(email: string, username: string) {
  await sendCode({ to: email, scene: 'register' });
  const captcha = await smtp.nextCode(email);
  const res = await post('register', {
    username,
    password: PASSWORD,
    password_confirmation: PASSWORD,
    email,
    captcha,
  });
  expect(res.statusCode, res.body).toBe(200);
  await endWindows();
  return res;
}

describe('POST captcha + register', () => {
  it('mails a 6-digit code over SMTP and registers with it, once', async () => {
    const email = nextEmail('reg');
    const res = await sendCode({ to: email, scene: 'register' });
    expect(res.json()).toEqual({ code: 200, data: { expires_in: 600, resend_in: 60 } });
    expect(res.body).not.toMatch(/\d{6}/);
    const mail = await smtp.nextMail(email);
    expect(mail.subject).toContain('verification code');
    const captcha = /\b(\d{6})\b/.exec(mail.text)![1]!;

    const body = { username: 'newbie', password: PASSWORD, password_confirmation: PASSWORD, email, captcha };
    const ok = await post('register', body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Object.keys(ok.json().data).sort()).toEqual(['access_token', 'expires_at']);
    const profile = await t.request({ url: '/api/v1/user/profile', token: ok.json().data.access_token });
    expect(profile.json().data).toMatchObject({ username: 'newbie', email });

    // Single use: the same code does not register a second account.
    const again = await post('register', { ...body, username: 'newbie2' });
    // The code is checked first (issue 12): a used code is wrong, whether or not the email is taken now.
    expect(again.statusCode).toBe(422);
    expect(again.json().errors).toEqual({ captcha: ['The captcha is wrong or has expired'] });
    const other = nextEmail();
    const reuse = await post('register', { ...body, username: 'newbie3', email: other });
    expect(reuse.statusCode).toBe(422);
    expect(reuse.json().errors).toEqual({ captcha: ['The captcha is wrong or has expired'] });
  });

  it('validates the registration form with the spec messages', async () => {
    const res = await post('register', {
      username: '1x',
      password: 'short',
      password_confirmation: 'other',
      captcha: '',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      username: ['3 to 32 letters, digits, dots, dashes or underscores, starting with a letter'],
      password: ['The password format is incorrect'],
      password_confirmation: ['The passwords entered twice do not match'],
      email: ['Please enter email'],
      captcha: ['Please enter captcha'],
    });
    const mismatch = await post('register', {
      username: 'okname',
      password: PASSWORD,
      password_confirmation: `${PASSWORD}x`,
      email: nextEmail(),
      captcha: '123456',
    });
    expect(mismatch.json().errors).toEqual({
      password_confirmation: ['The passwords entered twice do not match'],
    });
    const common = await post('register', {
      username: 'okname',
      password: 'iloveyou123',
      password_confirmation: 'iloveyou123',
      email: nextEmail(),
      captcha: '123456',
    });
    expect(common.json().errors).toEqual({ password: ['The password format is incorrect'] });
  });

  it('answers 409 for a taken username once the code is right (issue 27: the code first)', async () => {
    const email = nextEmail();
    const body = { username: 'ADMIN', password: PASSWORD, password_confirmation: PASSWORD, email };
    const wrong = await post('register', { ...body, captcha: '123456' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ captcha: ['The captcha is wrong or has expired'] });
    await sendCode({ to: email, scene: 'register' });
    const res = await post('register', { ...body, captcha: await smtp.nextCode(email) });
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toHaveProperty('username');
  });

  it('can be turned off in the login settings', async () => {
    await t.db.query(`INSERT INTO settings (name, value) VALUES ('login', '{"registration": false}')`);
    const res = await post('register', { username: 'late' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Registration is closed');
    await t.db.query(`DELETE FROM settings WHERE name = 'login'`);
  });
});

describe('code rules', () => {
  it('allows one send per address per 60 s, with Retry-After', async () => {
    const email = nextEmail();
    await sendCode({ to: email, scene: 'register' });
    const again = await post('captcha', { channel: 'email', to: email, scene: 'reset' });
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(50);
    await smtp.nextMail(email);
    // Another address is unaffected.
    await sendCode({ to: nextEmail(), scene: 'register' });
  });

  it('expires after 10 minutes', async () => {
    const email = nextEmail();
    await sendCode({ to: email, scene: 'register' });
    const captcha = await smtp.nextCode(email);
    // It was stored to last 10 minutes.
    const { rows } = await t.db.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM (expires_at - created_at)) / 60) AS minutes FROM verification_codes WHERE destination = $1`,
      [email],
    );
    expect(Number(rows[0]!.minutes)).toBe(10);
    await t.db.query(
      `UPDATE verification_codes SET expires_at = now() - interval '1 second' WHERE destination = $1`,
      [email],
    );
    const res = await post('register', {
      username: 'expired1',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      email,
      captcha,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ captcha: ['The captcha is wrong or has expired'] });
  });

  it('dies after 5 wrong tries, even for the right code afterwards', async () => {
    const email = nextEmail();
    await sendCode({ to: email, scene: 'register' });
    const captcha = await smtp.nextCode(email);
    const wrong = captcha === '000000' ? '000001' : '000000';
    const body = { username: 'tries1', password: PASSWORD, password_confirmation: PASSWORD, email };
    for (let i = 0; i < 5; i++) {
      expect((await post('register', { ...body, captcha: wrong })).statusCode).toBe(422);
    }
    const res = await post('register', { ...body, captcha });
    expect(res.statusCode).toBe(422);
  });

  it('works only for its scene and its address', async () => {
    const email = nextEmail();
    await sendCode({ to: email, scene: 'register' });
    const captcha = await smtp.nextCode(email);
    const other = nextEmail();
    const wrongAddress = await post('register', {
      username: 'scene1',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      email: other,
      captcha,
    });
    expect(wrongAddress.statusCode).toBe(422);
    const wrongScene = await post('reset', {
      channel: 'email',
      to: email,
      captcha,
      password: PASSWORD,
      password_confirmation: PASSWORD,
    });
    expect(wrongScene.statusCode).toBe(422);
    // Still alive for its own scene and address (the misses above counted 1 try against another row or none).
    const right = await post('register', {
      username: 'scene1',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      email,
      captcha,
    });
    expect(right.statusCode, right.body).toBe(200);
  });

  it('stores codes hashed, never in clear', async () => {
    const email = nextEmail();
    await sendCode({ to: email, scene: 'register' });
    const captcha = await smtp.nextCode(email);
    const { rows } = await t.db.query('SELECT * FROM verification_codes WHERE destination = $1', [email]);
    expect(JSON.stringify(rows)).not.toContain(captcha);
  });
});

describe('POST reset', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const known = nextEmail('known');
    await register(known, 'knownuser');
    const unknown = nextEmail('ghost');
    const a = await post('captcha', { channel: 'email', to: known, scene: 'reset' });
    const b = await post('captcha', { channel: 'email', to: unknown, scene: 'reset' });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.json()).toEqual(b.json());
    await smtp.nextMail(known);
    await expect(smtp.nextMail(unknown, 500)).rejects.toThrow(/no mail/);
  });

  it('sets the new password with a code and revokes every token', async () => {
    const email = nextEmail('reset');
    const first = await register(email, 'resetme');
    const tokenA = first.json().data.access_token;
    const ip = nextIp();
    const tokenB = (await post('login', { username: email, password: PASSWORD }, { ip })).json().data
      .access_token;

    await sendCode({ to: email, scene: 'reset' });
    const captcha = await smtp.nextCode(email);
    const fresh = 'a brand new passphrase';
    const bad = await post('reset', {
      channel: 'email',
      to: email,
      captcha: captcha === '999999' ? '999998' : '999999',
      password: fresh,
      password_confirmation: fresh,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ captcha: ['The captcha is wrong or has expired'] });

    const res = await post('reset', {
      channel: 'email',
      to: email.toUpperCase(),
      captcha,
      password: fresh,
      password_confirmation: fresh,
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const token of [tokenA, tokenB]) {
      expect((await t.request({ url: '/api/v1/user/profile', token })).statusCode).toBe(401);
    }
    expect((await post('login', { username: 'resetme', password: PASSWORD }, { ip })).statusCode).toBe(422);
    expect((await post('login', { username: 'resetme', password: fresh }, { ip })).statusCode).toBe(200);
    const { rows } = await t.db.query(`SELECT 1 FROM activity_logs WHERE action = 'auth.password_reset'`);
    expect(rows.length).toBeGreaterThan(0);
    // The code was single use.
    const replay = await post('reset', {
      channel: 'email',
      to: email,
      captcha,
      password: fresh,
      password_confirmation: fresh,
    });
    expect(replay.statusCode).toBe(422);
  });
});

describe('POST profile with a bind code', () => {
  it('changes the email after a code sent to the new address', async () => {
    const email = nextEmail('bind');
    const token = (await register(email, 'binder')).json().data.access_token;
    const anon = await post('captcha', { channel: 'email', to: nextEmail(), scene: 'bind' });
    expect(anon.statusCode).toBe(401);
    const next = nextEmail('bound');
    await sendCode({ to: next, scene: 'bind' }, { token });
    const captcha = await smtp.nextCode(next);
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/profile',
      token,
      payload: { email: next, captcha },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.email).toBe(next);
  });
});

describe('SMS channel', () => {
  it('answers a clear error while SMS is not set up', async () => {
    const res = await post('captcha', { channel: 'sms', to: '13900000001', scene: 'register' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      message: 'Sending codes by SMS is not set up; please contact the administrator',
      errors: { channel: ['Sending codes by SMS is not set up; please contact the administrator'] },
    });
    const bad = await post('captcha', { channel: 'sms', to: '12345', scene: 'register' });
    expect(bad.json().errors).toEqual({ to: ['Invalid phone number'] });
  });

  it('the log driver writes the message to the dev outbox, and registration by phone works', async () => {
    await t.db.query(`INSERT INTO settings (name, value) VALUES ('sms', '{"provider": "log"}')`);
    const phone = '13900000002';
    await sendCode({ channel: 'sms', to: phone, scene: 'register' });
    const outbox = path.join(t.config.dataDir, 'outbox', 'sms.log');
    const captcha = await eventually(
      () => {
        const lines = fs.existsSync(outbox) ? fs.readFileSync(outbox, 'utf8').trim().split('\n') : [];
        const line = lines.reverse().find((l) => l.includes(phone));
        const code = line ? (/\b(\d{6})\b/.exec(JSON.parse(line).text)?.[1] ?? '') : '';
        expect(code).toMatch(/^\d{6}$/);
        return code;
      },
      { intervalMs: 20, what: `a code for ${phone} in the SMS outbox` },
    );
    const res = await post('register', {
      username: 'phoneuser',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      phone,
      captcha,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await post('login', { username: phone, password: PASSWORD })).statusCode).toBe(200);
    await t.db.query(`DELETE FROM settings WHERE name = 'sms'`);
  });
});

describe('email channel not configured', () => {
  it('answers a clear, localized error', async () => {
    // The module reads the configuration per call; dropping the URL here is what an unset SMTP_URL does.
    const url = t.config.smtpUrl;
    t.config.smtpUrl = null;
    try {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/user/captcha',
        payload: { channel: 'email', to: 'x@example.com', scene: 'register' },
        remoteAddress: nextIp(),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('未配置邮件发送，请联系管理员');
    } finally {
      t.config.smtpUrl = url;
    }
  });
});
