import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACT_PATHS } from '../../server/core/logger.ts';
import { ADMIN, createTestApp } from '../helpers/app.ts';
import type { TestApp } from '../helpers/app.ts';
import { eventually } from '../helpers/eventually.ts';

// Every pino line of the server, at trace level and with the production redaction paths.
const lines: string[] = [];
let t: TestApp;
const secrets: string[] = [ADMIN.password];

beforeAll(async () => {
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, capture);
  t = await createTestApp({}, { logger });
  await t.db.query(`INSERT INTO settings (name, value) VALUES ('sms', '{"provider": "log"}')`);
});
afterAll(async () => {
  await t.close();
});

const responses: string[] = [];
async function call(opts: InjectOptions & { token?: string }) {
  const res = await t.request(opts);
  responses.push(res.body, JSON.stringify(res.headers));
  return res;
}

/** Sends a code by SMS (log driver) and reads it from a fresh outbox file. */
async function smsCode(payload: { to: string; scene: string }): Promise<string> {
  const phone = payload.to;
  const outbox = path.join(t.config.dataDir, 'outbox', 'sms.log');
  fs.rmSync(outbox, { force: true });
  const sent = await call({
    method: 'POST',
    url: '/api/v1/user/captcha',
    payload: { channel: 'sms', ...payload },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  return eventually(
    () => {
      const text = fs.existsSync(outbox) ? fs.readFileSync(outbox, 'utf8') : '';
      const line = text
        .trim()
        .split('\n')
        .reverse()
        .find((l) => l.includes(phone));
      const code = line ? /\b(\d{6})\b/.exec(JSON.parse(line).text)?.[1] : undefined;
      if (!code) throw new Error('no sms in the outbox');
      return code;
    },
    { intervalMs: 20, what: `an SMS to ${phone}` },
  );
}

describe('no secret reaches a log line or a response', () => {
  it('covers sign-in, failures, register, reset, password change and logout', async () => {
    const phone = '13700000009';
    const password = 'plum-heron-sings-at-dawn';
    const newPassword = 'quiet-lantern-over-the-bay';
    const finalPassword = 'seven-cedar-boats-drift';
    secrets.push(password, newPassword, finalPassword);

    const bad = await call({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: 'admin', password: password },
    });
    expect(bad.statusCode).toBe(422);
    const good = await call({ method: 'POST', url: '/api/v1/user/login', payload: ADMIN });
    secrets.push(good.json().data.access_token);

    const registerCode = await smsCode({ to: phone, scene: 'register' });
    secrets.push(registerCode);
    const registered = await call({
      method: 'POST',
      url: '/api/v1/user/register',
      payload: {
        username: 'logcheck',
        password,
        password_confirmation: password,
        phone,
        captcha: registerCode,
      },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const token = registered.json().data.access_token as string;
    secrets.push(token);

    const changed = await call({
      method: 'POST',
      url: '/api/v1/user/password',
      token,
      payload: { old_password: password, password: newPassword, password_confirmation: newPassword },
    });
    expect(changed.statusCode).toBe(200);

    await t.db.query(`UPDATE rate_limits SET reset_at = now() - interval '1 second'`);
    const resetCode = await smsCode({ to: phone, scene: 'reset' });
    expect(resetCode).not.toBe(registerCode);
    secrets.push(resetCode);
    const reset = await call({
      method: 'POST',
      url: '/api/v1/user/reset',
      payload: {
        channel: 'sms',
        to: phone,
        captcha: resetCode,
        password: finalPassword,
        password_confirmation: finalPassword,
      },
    });
    expect(reset.statusCode, reset.body).toBe(200);

    const again = await call({
      method: 'POST',
      url: '/api/v1/user/login',
      payload: { username: phone, password: finalPassword, remember: true },
    });
    const lastToken = again.json().data.access_token as string;
    secrets.push(lastToken);
    expect((await call({ method: 'POST', url: '/api/v1/user/logout', token: lastToken })).statusCode).toBe(
      200,
    );

    // The log driver left a masked notice in the log, and the activity log holds every event.
    expect(lines.some((l) => l.includes('137****0009'))).toBe(true);
    const { rows } = await t.db.query<{ action: string }>(
      'SELECT action, changes, ip, user_agent FROM activity_logs',
    );
    const actions = rows.map((r) => r.action);
    for (const action of [
      'auth.login_failed',
      'auth.login',
      'auth.register',
      'auth.password_changed',
      'auth.password_reset',
      'auth.logout',
    ]) {
      expect(actions).toContain(action);
    }

    expect(lines.length).toBeGreaterThan(10);
    const logText = lines.join('\n');
    const responseText = responses.join('\n');
    const activityText = JSON.stringify(rows);
    for (const secret of secrets) {
      expect(logText).not.toContain(secret);
      expect(activityText).not.toContain(secret);
    }
    // Responses carry a token only as the sign-in answer itself; never a password or a code.
    for (const secret of [ADMIN.password, password, newPassword, finalPassword, registerCode, resetCode]) {
      expect(responseText).not.toContain(secret);
    }
  });
});
