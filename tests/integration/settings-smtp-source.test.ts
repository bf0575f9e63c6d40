import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 34, item 6: the message settings say where the SMTP URL mail goes through comes from (these
// settings, the environment's SMTP_URL, or nowhere), so the screen no longer reads "Not set" while
// SMTP_URL is in use, and neither URL (nor its password) is ever answered.
const ENV_URL = 'smtp://mailer:env-secret-pw@127.0.0.1:2525';
const OWN_URL = 'smtp://owner:own-secret-pw@127.0.0.1:2526';
let withEnv: TestApp;
let without: TestApp;

beforeAll(async () => {
  [withEnv, without] = await Promise.all([
    createTestApp({ smtpUrl: ENV_URL, deliveryAllowPrivate: true }),
    createTestApp({ smtpUrl: null, deliveryAllowPrivate: true }),
  ]);
}, 180_000);
afterAll(async () => {
  await Promise.all([withEnv?.close(), without?.close()]);
});

async function message(t: TestApp, method: 'GET' | 'POST' = 'GET', payload?: object) {
  const res = await t.request({
    method,
    url: '/api/v1/settings/message',
    token: await t.adminToken(),
    payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  for (const secret of ['env-secret-pw', 'own-secret-pw', 'mailer:', 'owner:'])
    expect(res.body).not.toContain(secret);
  return res.json().data as Record<string, unknown>;
}

describe('where the SMTP URL in use comes from', () => {
  it('is the environment while the settings have none, and nowhere without SMTP_URL', async () => {
    expect(await message(withEnv)).toMatchObject({ smtp_url_set: false, smtp_url_source: 'environment' });
    expect(await message(without)).toMatchObject({ smtp_url_set: false, smtp_url_source: 'none' });
  });

  it('is the settings once they hold one, in the save answer and on reading back', async () => {
    const body = { smtp_url: OWN_URL, mail_from: 'noreply@example.com', templates: {} };
    expect(await message(withEnv, 'POST', body)).toMatchObject({
      smtp_url_set: true,
      smtp_url_source: 'settings',
    });
    expect(await message(withEnv)).toMatchObject({ smtp_url_source: 'settings' });
    expect(await message(without, 'POST', body)).toMatchObject({ smtp_url_source: 'settings' });
  });

  it('is documented in the named answer schema and refused in a body', async () => {
    const doc = (await withEnv.request({ url: '/api/docs/json' })).json();
    const schema = doc.components.schemas.SettingsMessage;
    expect(schema.properties.smtp_url_source.enum).toEqual(['settings', 'environment', 'none']);
    expect(doc.components.schemas.SettingsMessageBody.properties.smtp_url_source).toBeUndefined();
    const res = await withEnv.request({
      method: 'POST',
      url: '/api/v1/settings/message',
      token: await withEnv.adminToken(),
      payload: { mail_from: '', templates: {}, smtp_url_source: 'none' },
    });
    expect(res.statusCode).toBe(422);
  });
});
