import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { createUser } from '../helpers/users.ts';

/** `POST v1/user/staff/<id>/invitation/send` (issue 34, item 8): the link by mail, limited and audited. */
let t: TestApp;
let smtp: TestSmtp;
let admin: string;

const call = (url: string, token: string | undefined, payload?: object, method = 'POST') =>
  t.request({
    method: method as 'POST',
    url: `/api/${url}`,
    token,
    headers: { 'accept-language': 'en' },
    ...(payload ? { payload } : {}),
  });
const tokenOf = (url: string) => new URL(url).searchParams.get('invitation')!;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ smtpUrl: smtp.url });
  admin = await t.adminToken();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('sending an invitation', () => {
  it('mails a new link that joins; the old link stops working; the send is audited with a masked address', async () => {
    const staff = (await call('v1/user/staff', admin, { name: 'Iris', email: 'iris@example.com' })).json()
      .data;
    const res = await call(`v1/user/staff/${staff.id}/invitation/send`, admin, { channel: 'email' });
    expect(res.statusCode).toBe(200);
    const sent = res.json().data;
    expect(sent).toMatchObject({ channel: 'email', sent_to: 'i***@example.com' });
    expect(Date.parse(sent.invitation_expires_at)).toBeGreaterThan(Date.now() + 6 * 86_400_000);

    const mail = await smtp.nextMail('iris@example.com');
    expect(mail.subject).toContain('invited');
    const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
    expect(link).toBe(sent.invitation_url);
    expect(mail.text).toContain('7 days');

    const iris = await createUser(t.db);
    const stale = await call('v1/user/join', iris.token, { invitation: tokenOf(staff.invitation_url) });
    expect(stale.statusCode).toBe(422);
    const joined = await call('v1/user/join', iris.token, { invitation: tokenOf(link!) });
    expect(joined.statusCode).toBe(200);
    expect(joined.json().data.staff_id).toBe(staff.id);

    const { rows } = await t.db.query<{ changes: { channel: string; to: string } }>(
      "SELECT changes FROM activity_logs WHERE action = 'staff.invitation_sent' AND subject_id = $1",
      [staff.id],
    );
    expect(rows.map((r) => r.changes)).toEqual([{ channel: 'email', to: 'i***@example.com' }]);
    // Joined: nothing more to send.
    expect(
      (await call(`v1/user/staff/${staff.id}/invitation/send`, admin, { channel: 'email' })).statusCode,
    ).toBe(409);
  });

  it('names the missing address or channel, and leaves the current link alone', async () => {
    const staff = (await call('v1/user/staff', admin, { name: 'Jade' })).json().data;
    const noEmail = await call(`v1/user/staff/${staff.id}/invitation/send`, admin, { channel: 'email' });
    expect(noEmail.statusCode).toBe(422);
    expect(noEmail.json().errors.channel).toEqual(['This staff member has no email address']);
    const withPhone = await call(`v1/user/staff/${staff.id}`, admin, { phone: '13800138000' }, 'PATCH');
    expect(withPhone.statusCode).toBe(200);
    const noSms = await call(`v1/user/staff/${staff.id}/invitation/send`, admin, { channel: 'sms' });
    expect(noSms.statusCode).toBe(409);
    expect(noSms.json().message).toContain('SMS');
    // The link issued with the record still works: a refused send issues nothing.
    const jade = await createUser(t.db);
    expect(
      (await call('v1/user/join', jade.token, { invitation: tokenOf(staff.invitation_url) })).statusCode,
    ).toBe(200);
  });

  it('needs the update permission, and is limited per record and caller', async () => {
    const staff = (await call('v1/user/staff', admin, { name: 'Kit', email: 'kit@example.com' })).json().data;
    const viewer = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } });
    expect(
      (await call(`v1/user/staff/${staff.id}/invitation/send`, viewer.token, { channel: 'email' }))
        .statusCode,
    ).toBe(403);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call(`v1/user/staff/${staff.id}/invitation/send`, admin, { channel: 'email' });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      else await smtp.nextMail('kit@example.com');
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // Someone else's calls do not use up this caller's sends, and the signed-out get 401, not 429.
    expect(
      (await call(`v1/user/staff/${staff.id}/invitation/send`, undefined, { channel: 'email' })).statusCode,
    ).toBe(401);
  });
});

describe('a mail server that is down', () => {
  it('answers 409 with a plain message, not a 5xx', async () => {
    const down = await startSmtp();
    await down.close();
    const app = await createTestApp({ smtpUrl: down.url });
    try {
      const token = await app.adminToken();
      const staff = (
        await app.request({
          method: 'POST',
          url: '/api/v1/user/staff',
          token,
          payload: { name: 'Lou', email: 'lou@example.com' },
        })
      ).json().data;
      const res = await app.request({
        method: 'POST',
        url: `/api/v1/user/staff/${staff.id}/invitation/send`,
        token,
        headers: { 'accept-language': 'en' },
        payload: { channel: 'email' },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(
        'The link could not be sent; check the mail or SMS settings and try again',
      );
      expect(res.body).not.toMatch(/ECONNREFUSED|stack|127\.0\.0\.1/);
    } finally {
      await app.close();
    }
  });
});
