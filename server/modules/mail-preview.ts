import * as z from 'zod';
import { LOCALES, translate } from '../../locales/index.ts';
import {
  fillTemplate,
  MAIL_TEMPLATES,
  SAMPLE_VALUES,
  templateIssues,
  type MailTemplate,
} from '../../schemas/mailTemplates.ts';
import type { AppModule } from '../core/app-module.ts';
import { ok } from '../core/envelope.ts';
import { AppError } from '../core/errors.ts';
import { requirePermission } from '../core/principal.ts';
import { route } from '../core/route.ts';
import { getSettings } from '../core/settings.ts';
import { renderCodeMail } from './auth/index.ts';
import { SETTINGS_READ } from './settings.ts';

const previewBody = z
  .object({
    locale: z.enum(LOCALES),
    template: z.enum(Object.keys(MAIL_TEMPLATES) as [MailTemplate, ...MailTemplate[]]),
    subject: z.string().max(200).default(''),
    body: z.string().max(5000).default(''),
  })
  .strict()
  .meta({ 'x-name': 'MailTemplatePreviewBody' });

const previewAnswer = z
  .object({
    subject: z.string().describe('the subject a mail would have, as plain text'),
    text: z.string().describe('the body a mail would have, as plain text (mails are sent as text/plain)'),
    placeholders: z.array(z.string()).describe('the placeholders the template accepts'),
  })
  .meta({ 'x-name': 'MailTemplatePreview' });

/**
 * `POST /api/v1/settings/message/preview` (the general settings page's permissions): a mail template, saved or
 * not, rendered as the mailer renders it (auth/delivery.ts), with sample values, the site's name and the
 * language's texts. An empty subject or body previews the built-in text; an unknown placeholder or a body
 * without a subject is the 422 a save would give, naming `subject` or `body`. Plain text: the client shows it
 * as text, never as HTML.
 */
export const mailPreviewModule: AppModule = {
  name: 'mail-preview',
  register(app, { db }) {
    route(app, {
      method: 'POST',
      url: '/api/v1/settings/message/preview',
      tags: ['settings'],
      summary: 'Render a mail template with sample values, as the mailer would send it',
      access: async (request) => {
        for (const name of SETTINGS_READ) await requirePermission(request, name);
      },
      body: previewBody,
      responses: { 200: previewAnswer },
      handler: async ({ body }) => {
        const { locale, template, subject, body: text } = body;
        const [subjectKey, bodyKey] = [`${template}_subject`, `${template}_body`];
        const issues = templateIssues({ [locale]: { [subjectKey]: subject, [bodyKey]: text } });
        if (Object.keys(issues).length)
          throw AppError.validation(
            Object.fromEntries(
              Object.entries(issues).map(([path, keys]) => [
                path.endsWith('_subject') ? 'subject' : 'body',
                keys,
              ]),
            ),
          );
        const site = await getSettings(db, 'site');
        const params = {
          ...SAMPLE_VALUES,
          site_name: site.site_name,
          scene: translate(locale, 'auth.scenes.login'),
        };
        // Invitations are not mailed yet (issue 34 item 8) and have no built-in text: the template alone.
        const mail =
          template === 'code'
            ? renderCodeMail({ locale, params, custom: { code_subject: subject, code_body: text } })
            : { subject: fillTemplate(subject, params), text: fillTemplate(text, params) };
        return ok({
          subject: mail.subject.trim(),
          text: mail.text.trim(),
          placeholders: MAIL_TEMPLATES[template].map((name) => `{{${name}}}`),
        });
      },
    });
  },
};
