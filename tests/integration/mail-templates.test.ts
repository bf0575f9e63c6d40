import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

// Issue 34, item 6: mail templates per language are checked on save (an unknown placeholder, a body without
// a subject: a 422 naming the field, in the request's language) and previewed by the mailer's own rendering.
let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ smtpUrl: null });
  admin = await t.adminToken();
});
afterAll(() => t.close());

const save = (templates: object, lang = 'en') =>
  t.request({
    method: 'POST',
    url: '/api/v1/settings/message',
    token: admin,
    payload: { mail_from: '', templates },
    headers: { 'accept-language': lang },
  });

const preview = (payload: object, token: string | undefined = admin, lang = 'en') =>
  t.request({
    method: 'POST',
    url: '/api/v1/settings/message/preview',
    token,
    payload,
    headers: { 'accept-language': lang },
  });

describe('mail templates', () => {
  it('saves valid templates per language and refuses unknown placeholders and a missing subject', async () => {
    const valid = {
      en: { code_subject: '{{site_name}}: code', code_body: 'Use {{code}} within {{ minutes }} minutes.' },
      'zh-CN': { code_subject: '', code_body: '' },
    };
    const ok = await save(valid);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.templates.en.code_body).toBe(valid.en.code_body);

    for (const [lang, expected] of [
      ['en', /\{\{url\}\} is not a placeholder.*\{\{code\}\}/],
      ['zh-CN', /没有占位符 \{\{url\}\}/],
    ] as const) {
      const res = await save({ en: { code_subject: 'Code', code_body: 'Open {{url}}' } }, lang);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors['templates.en.code_body'][0]).toMatch(expected);
    }
    const noSubject = await save({ 'zh-CN': { code_subject: ' ', code_body: '{{code}}' } }, 'zh-CN');
    expect(noSubject.statusCode).toBe(422);
    expect(noSubject.json().errors['templates.zh-CN.code_subject'][0]).toContain('主题');
    // Nothing of the refused saves was stored.
    const read = await t.request({ url: '/api/v1/settings/message', token: admin });
    expect(read.json().data.templates.en).toMatchObject(valid.en);
  });

  it('previews a template with sample values, as plain text, in OpenAPI, for the settings permission only', async () => {
    const site = (await t.request({ url: '/api/v1/settings/site', token: admin })).json().data.site_name;
    const res = await preview({
      locale: 'en',
      template: 'code',
      subject: '{{site_name}}: {{code}}',
      body: '<b>{{code}}</b> for {{scene}}, {{minutes}} min',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      subject: `${site}: 246810`,
      // Mail is text/plain: markup stays text, for the screen to show as text.
      text: '<b>246810</b> for sign-in, 10 min',
      placeholders: ['{{code}}', '{{minutes}}', '{{site_name}}', '{{scene}}'],
    });
    // Empty: the built-in text of the language, filled the same way.
    const builtIn = await preview({ locale: 'zh-CN', template: 'code', subject: '', body: '' });
    expect(builtIn.statusCode).toBe(200);
    expect(builtIn.json().data.text).toContain('246810');
    expect(builtIn.json().data.subject).toContain(site);

    const bad = await preview({ locale: 'en', template: 'invitation', subject: '', body: '{{code}}' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['body', 'subject']);
    expect((await preview({ locale: 'fr', template: 'code' })).statusCode).toBe(422);
    const anonymous = await t.request({
      method: 'POST',
      url: '/api/v1/settings/message/preview',
      payload: { locale: 'en', template: 'code' },
    });
    expect(anonymous.statusCode).toBe(401);

    const doc = (await t.request({ url: '/api/docs/json' })).json();
    const op = doc.paths['/api/v1/settings/message/preview'].post;
    expect(JSON.stringify(op)).toContain('MailTemplatePreview');
    expect(doc.components.schemas.MailTemplatePreviewBody.properties.template.enum).toEqual([
      'code',
      'invitation',
    ]);
  });
});
