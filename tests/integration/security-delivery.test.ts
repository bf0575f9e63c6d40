import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import en from '../../locales/en/settings.json';
import enAuth from '../../locales/en/auth-server.json';
import zh from '../../locales/zh-CN/settings.json';
import { PERMISSION } from '../../schemas/permissions.ts';
import { closeMailTransports } from '../../server/mail/mailer.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { createUser, staffWithRole as staffWithRoleOf } from '../helpers/users.ts';

// Issue 27, item 1 (contract Amendments, "Delivery settings and lockout"): where codes, invitations and mail
// go is as sensitive as the accounts. Only administrators or holders of system.settings.delivery change the
// message keys smtp_url and mail_from and the sms keys provider, endpoint, access_key_id and
// access_key_secret; every change is audited and mailed to the administrators; the SMTP host and the SMS
// endpoint may not be (or resolve to) loopback, link-local or private addresses, on save and on connect,
// unless the environment allows it; a password reset of an administrator is announced at its email.

const ADMIN_EMAIL = 'root@example.com';
const SECOND_ADMIN_EMAIL = 'deputy@example.com';
const lines: string[] = [];
let t: TestApp;
let smtp: TestSmtp;
let admin: string;
let seq = 0;
const nextIp = () => `10.27.${Math.floor(++seq / 250)}.${(seq % 250) + 1}`;

/** A loopback HTTP server standing in for an SMS gateway; keeps every body it receives. */
let gateway: http.Server;
let gatewayUrl: string;
const gatewayBodies: Array<{ to: string }> = [];

beforeAll(async () => {
  smtp = await startSmtp();
  gateway = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      gatewayBodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { to: string });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', () => resolve()));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;
  const capture = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  // SMTP_URL (the environment's, trusted) points at the loopback test server; the settings start empty.
  t = await createTestApp(
    { smtpUrl: smtp.url, dataDir: `/tmp/admin-security-delivery-${process.pid}` },
    { logger: pino({ level: 'info' }, capture) },
  );
  admin = await t.adminToken();
  await t.db.query(`UPDATE users SET email = $1 WHERE username = 'admin'`, [ADMIN_EMAIL]);
  const deputy = await createUser(t.db, { staff: { isAdmin: true } });
  await t.db.query('UPDATE users SET email = $1 WHERE id = $2', [SECOND_ADMIN_EMAIL, deputy.userId]);
});
afterAll(async () => {
  await t.close();
  closeMailTransports();
  await smtp.close();
  await new Promise((resolve) => gateway.close(resolve));
});
beforeEach(async () => {
  t.config.deliveryAllowPrivate = false;
  t.config.deliveryAllowedHosts = [];
  await t.db.query(`UPDATE rate_limits SET reset_at = now() - interval '1 second'`);
});

/** A role saved through the role editor's own call, then a staff member holding it. */
const staffWithRole = (menuIds: string[]) => staffWithRoleOf(t, admin, menuIds);

const WRITER = [PERMISSION.settings, PERMISSION.settingsGeneral, `${PERMISSION.settingsGeneral}.update`];

function save(group: string, payload: Record<string, unknown>, token: string, language = 'zh-CN') {
  return t.request({
    method: 'POST',
    url: `/api/v1/settings/${group}`,
    token,
    payload,
    headers: { 'accept-language': language },
  });
}

/** A mail subject with its RFC 2047 encoded words decoded (the helper keeps the header as sent). */
function subjectOf(mail: { subject: string }): string {
  return mail.subject
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/gi, (_, b64: string) => Buffer.from(b64, 'base64').toString('utf8'));
}

/** The stored row of a group, as the database holds it (secrets included). */
async function stored(group: string): Promise<unknown> {
  const { rows } = await t.db.query<{ value: unknown }>('SELECT value FROM settings WHERE name = $1', [
    group,
  ]);
  return rows[0]?.value ?? null;
}

/** Clears the stored SMTP URL (a blank secret keeps its value over the API), so SMTP_URL applies again. */
async function useSmtpUrlOfEnvironment() {
  await t.db.query(`UPDATE settings SET value = value || '{"smtp_url": ""}'::jsonb WHERE name = 'message'`);
}

async function auditRows(group: string, operatorId: string) {
  const { rows } = await t.db.query<{ changes: Record<string, unknown> }>(
    `SELECT changes FROM activity_logs WHERE action = 'settings.update' AND subject_id = $1 AND operator_id = $2`,
    [group, operatorId],
  );
  return rows;
}

const MESSAGE = { smtp_url: '', mail_from: 'noreply@example.com', templates: {} };
const SMS = {
  provider: 'http',
  endpoint: 'https://sms.example.com/send',
  access_key_id: 'id-1',
  access_key_secret: 'secret-1',
  sign_name: 'Shop',
  template: 'T1',
};

describe('who may change the delivery settings', () => {
  let writer: { token: string; userId: string };

  beforeAll(async () => {
    // Start from known values, set by the administrator (the hosts are public names, unresolved here).
    t.config.deliveryAllowedHosts = ['sms.example.com'];
    expect((await save('message', MESSAGE, admin)).statusCode).toBe(200);
    const sms = await save('sms', SMS, admin);
    expect(sms.statusCode, sms.body).toBe(200);
    t.config.deliveryAllowedHosts = [];
    // The administrators' notices of those two saves.
    for (const to of [ADMIN_EMAIL, SECOND_ADMIN_EMAIL, ADMIN_EMAIL, SECOND_ADMIN_EMAIL])
      await smtp.nextMail(to);
    writer = await staffWithRole(WRITER);
  });

  it.each([
    ['message', { ...MESSAGE, smtp_url: 'smtp://mail.attacker.example:25' }, 'smtp_url'],
    ['message', { ...MESSAGE, mail_from: 'it@attacker.example' }, 'mail_from'],
    ['sms', { ...SMS, provider: 'log' }, 'provider'],
    ['sms', { ...SMS, endpoint: 'https://sms.attacker.example/hook' }, 'endpoint'],
    ['sms', { ...SMS, access_key_id: 'other' }, 'access_key_id'],
    ['sms', { ...SMS, access_key_secret: 'other-secret' }, 'access_key_secret'],
  ])('a general settings writer changing %s %j gets 403 and nothing changes', async (group, payload, key) => {
    const before = await stored(group);
    const res = await save(group, payload, writer.token);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json()).toMatchObject({
      code: 403,
      message: zh.general.errors.delivery_forbidden,
      data: null,
    });
    expect(Object.keys(res.json().errors)).toEqual([key]);
    expect(await stored(group)).toEqual(before);
    expect(await auditRows(group, writer.userId)).toEqual([]);
  });

  it('the same writer still saves those groups when the delivery keys stay as they are', async () => {
    const templates = { en: { code_subject: 'Your code', code_body: '{{code}}' } };
    // smtp_url and access_key_secret are write-only: omitted (or empty) keeps them, as the form sends them.
    const message = await save('message', { mail_from: MESSAGE.mail_from, templates }, writer.token);
    expect(message.statusCode, message.body).toBe(200);
    const sms = await save(
      'sms',
      { ...SMS, access_key_secret: '', sign_name: 'Shop 2', template: 'T2' },
      writer.token,
    );
    expect(sms.statusCode, sms.body).toBe(200);
    expect(await stored('sms')).toMatchObject({ ...SMS, sign_name: 'Shop 2', template: 'T2' });
    expect((await stored('message')) as object).toMatchObject({ mail_from: MESSAGE.mail_from });
    expect(await auditRows('sms', writer.userId)).toHaveLength(1);
  });

  it('an administrator changes them: audited (secrets masked) and mailed to every administrator', async () => {
    // Listed, so the check on save looks nothing up (the test needs no DNS beyond localhost).
    t.config.deliveryAllowedHosts = ['sms.example.com'];
    const res = await save(
      'sms',
      { ...SMS, access_key_secret: 'rotated-secret', access_key_id: 'id-2' },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`);
    const audit = await auditRows('sms', rows[0]!.id);
    expect(audit.at(-1)!.changes).toMatchObject({
      access_key_id: ['id-1', 'id-2'],
      access_key_secret: ['******', '******'],
    });
    for (const to of [ADMIN_EMAIL, SECOND_ADMIN_EMAIL]) {
      const mail = await smtp.nextMail(to);
      expect(subjectOf(mail)).toContain('投递设置已修改');
      expect(mail.text).toContain('admin');
      expect(mail.text).toContain(zh.general.fields.access_key_secret);
      expect(mail.text).not.toContain('rotated-secret');
    }
  });

  it('a holder of system.settings.delivery (marked dangerous, grantable) changes them too', async () => {
    const holder = await staffWithRole([...WRITER, PERMISSION.settingsDelivery]);
    const res = await save('message', { ...MESSAGE, mail_from: 'desk@example.com' }, holder.token, 'en');
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored('message')).toMatchObject({ mail_from: 'desk@example.com' });
    expect((await auditRows('message', holder.userId))[0]!.changes).toMatchObject({
      mail_from: [MESSAGE.mail_from, 'desk@example.com'],
    });
    const mail = await smtp.nextMail(SECOND_ADMIN_EMAIL);
    expect(subjectOf(mail)).toContain('delivery settings changed');
    expect(mail.text).toContain(en.general.fields.mail_from);
    await smtp.nextMail(ADMIN_EMAIL);
    // The delivery permission alone does not write settings: it rides on general settings' update.
    const alone = await staffWithRole([
      PERMISSION.settings,
      PERMISSION.settingsGeneral,
      PERMISSION.settingsDelivery,
    ]);
    expect((await save('message', { ...MESSAGE, mail_from: 'x@example.com' }, alone.token)).statusCode).toBe(
      403,
    );
  });
});

describe('where delivery may connect', () => {
  it.each([
    'smtp://127.0.0.1:25',
    'smtp://localhost:2525',
    'smtps://[::1]:465',
    'smtp://10.0.0.8',
    'smtp://172.20.1.1:587',
    'smtp://192.168.1.10',
    'smtp://169.254.169.254',
    'smtp://[::ffff:127.0.0.1]:25',
    'smtp://[fe80::1]:25',
    'smtp://0.0.0.0:25',
  ])('an SMTP URL at %s is a 422 naming smtp_url, in the caller language', async (url) => {
    const before = await stored('message');
    const zhRes = await save('message', { ...MESSAGE, smtp_url: url }, admin);
    expect(zhRes.statusCode, zhRes.body).toBe(422);
    expect(zhRes.json().errors).toEqual({ smtp_url: [zh.general.errors.host_private] });
    const enRes = await save('message', { ...MESSAGE, smtp_url: url }, admin, 'en');
    expect(enRes.json().errors).toEqual({ smtp_url: [en.general.errors.host_private] });
    expect(enRes.body).not.toContain(url);
    expect(await stored('message')).toEqual(before);
  });

  it('an SMS endpoint at a metadata, private or loopback address is a 422 naming endpoint', async () => {
    for (const endpoint of ['http://169.254.169.254/latest/meta-data', 'http://127.0.0.1:9/x', gatewayUrl]) {
      const res = await save('sms', { ...SMS, endpoint }, admin);
      expect(res.statusCode, endpoint).toBe(422);
      expect(res.json().errors).toEqual({ endpoint: [zh.general.errors.host_private] });
    }
    const bad = await save('sms', { ...SMS, endpoint: 'file:///etc/passwd' }, admin, 'en');
    expect(bad.json().errors).toEqual({ endpoint: [en.general.errors.endpoint] });
  });

  it('an SMTP URL whose query would connect elsewhere (a proxy, a service) is a 422', async () => {
    t.config.deliveryAllowedHosts = ['mail.example.com'];
    for (const query of ['proxy=socks5://127.0.0.1:1080', 'service=gmail', 'direct=true']) {
      const res = await save(
        'message',
        { ...MESSAGE, smtp_url: `smtp://mail.example.com:25?${query}` },
        admin,
      );
      expect(res.statusCode, query).toBe(422);
      expect(res.json().errors).toEqual({ smtp_url: [zh.general.errors.smtp_url] });
    }
  });

  it('DELIVERY_ALLOWED_HOSTS limits the hosts and vouches for the ones it lists', async () => {
    t.config.deliveryAllowedHosts = ['.mail.example.com', 'localhost'];
    const off = await save('message', { ...MESSAGE, smtp_url: 'smtp://smtp.other.example:25' }, admin);
    expect(off.statusCode).toBe(422);
    expect(off.json().errors).toEqual({ smtp_url: [zh.general.errors.host_not_allowed] });
    const listed = await save('message', { ...MESSAGE, smtp_url: 'smtp://localhost:2525' }, admin);
    expect(listed.statusCode, listed.body).toBe(200);
    const sub = await save('message', { ...MESSAGE, smtp_url: 'smtp://eu.mail.example.com:25' }, admin);
    expect(sub.statusCode, sub.body).toBe(200);
    for (const to of [ADMIN_EMAIL, SECOND_ADMIN_EMAIL]) await smtp.nextMail(to); // the first change's notices
    await useSmtpUrlOfEnvironment();
  });

  it('DELIVERY_ALLOW_PRIVATE=1 (the environment) lets an administrator use a loopback server', async () => {
    t.config.deliveryAllowPrivate = true;
    const res = await save('message', { ...MESSAGE, smtp_url: smtp.url }, admin);
    expect(res.statusCode, res.body).toBe(200);
    // The notices went through the mail server of before the change (SMTP_URL's).
    for (const to of [ADMIN_EMAIL, SECOND_ADMIN_EMAIL]) await smtp.nextMail(to);
    await useSmtpUrlOfEnvironment();
  });

  /** Waits for the server's log line saying a code was not delivered, for the given channel. */
  async function deliveryRefused(channel: string, from: number) {
    await expect
      .poll(
        () =>
          lines
            .slice(from)
            .map((line) => JSON.parse(line) as { msg: string; channel?: string; err?: { message?: string } })
            .find((l) => l.msg === 'code delivery failed' && l.channel === channel),
        { timeout: 10_000 },
      )
      .toMatchObject({ err: { message: expect.stringMatching(/refused \(host_private\)/) } });
  }

  function captcha(payload: Record<string, unknown>) {
    return t.request({
      method: 'POST',
      url: '/api/v1/user/captcha',
      payload,
      remoteAddress: nextIp(),
    });
  }

  it('the SMTP host is checked again on connect: a name that resolves to loopback now is refused', async () => {
    // As if DNS had changed since the save (or the row predates the guard): written straight to the table.
    const url = smtp.url.replace('127.0.0.1', 'localhost');
    await t.db.query(`UPDATE settings SET value = value || $1::jsonb WHERE name = 'message'`, [
      JSON.stringify({ smtp_url: url }),
    ]);
    const from = lines.length;
    const first = 'first-refused@example.com';
    expect((await captcha({ channel: 'email', to: first, scene: 'register' })).statusCode).toBe(200);
    await deliveryRefused('email', from);
    // The same settings deliver once the environment allows private addresses: the control.
    t.config.deliveryAllowPrivate = true;
    const second = 'second-allowed@example.com';
    expect((await captcha({ channel: 'email', to: second, scene: 'register' })).statusCode).toBe(200);
    expect(await smtp.nextCode(second)).toMatch(/^\d{6}$/);
    expect(smtp.mails.some((m) => m.to.includes(first))).toBe(false);
    await useSmtpUrlOfEnvironment();
  });

  it('the SMS endpoint is checked again on connect: the gateway at a loopback address gets nothing', async () => {
    await t.db.query(`UPDATE settings SET value = value || $1::jsonb WHERE name = 'sms'`, [
      JSON.stringify({ provider: 'http', endpoint: gatewayUrl }),
    ]);
    const from = lines.length;
    expect((await captcha({ channel: 'sms', to: '13900000027', scene: 'register' })).statusCode).toBe(200);
    await deliveryRefused('sms', from);
    expect(gatewayBodies).toEqual([]);
    t.config.deliveryAllowPrivate = true;
    expect((await captcha({ channel: 'sms', to: '13900000028', scene: 'register' })).statusCode).toBe(200);
    await expect.poll(() => gatewayBodies.map((b) => b.to)).toEqual(['13900000028']);
  });
});

describe('a password reset of an administrator account', () => {
  it('is announced by mail at the account email; a staff member reset gets no such notice', async () => {
    const staff = await createUser(t.db, { staff: {} });
    await t.db.query('UPDATE users SET email = $1 WHERE id = $2', ['clerk@example.com', staff.userId]);
    const password = 'a brand new passphrase';
    for (const to of ['clerk@example.com', ADMIN_EMAIL]) {
      const code = await t.request({
        method: 'POST',
        url: '/api/v1/user/captcha',
        payload: { channel: 'email', to, scene: 'reset' },
        remoteAddress: nextIp(),
      });
      expect(code.statusCode, code.body).toBe(200);
      const captcha = await smtp.nextCode(to);
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/user/reset',
        payload: { channel: 'email', to, captcha, password, password_confirmation: password },
        remoteAddress: nextIp(),
        headers: { 'accept-language': 'en' },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const notice = await smtp.nextMail(ADMIN_EMAIL);
    expect(subjectOf(notice)).toBe(enAuth.mail.admin_reset_subject.replace('{{site_name}}', 'Admin'));
    expect(notice.text).toContain('admin');
    expect(notice.text).not.toMatch(/\b\d{6}\b/);
    // The administrator's notice came after the clerk's reset finished: nothing was sent to the clerk.
    expect(smtp.mails.some((m) => m.to.includes('clerk@example.com'))).toBe(false);
  });
});
