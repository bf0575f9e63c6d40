/**
 * The mail templates an administrator may write per language (settings group `message`, key `templates`):
 * which placeholders each accepts, how a template is filled, and what makes one invalid. Shared by the
 * mailer (server/modules/auth/delivery.ts), the settings save (a 422 per field), the preview call
 * (`POST /api/v1/settings/message/preview`) and the settings screen, so a preview is what a mail says.
 *
 * @example fillTemplate('{{site_name}}: {{code}}', { site_name: 'Admin', code: '123456' }) // 'Admin: 123456'
 */
export const MAIL_TEMPLATES = {
  code: ['code', 'minutes', 'site_name', 'scene'],
  invitation: ['site_name', 'url', 'minutes'],
} as const;

export type MailTemplate = keyof typeof MAIL_TEMPLATES;

/** The stored keys of a template: `code_subject`, `code_body`, ... */
export const templateKeys = (template: MailTemplate) => [`${template}_subject`, `${template}_body`] as const;

/** What a preview fills in, per placeholder (a scene and a site name come from the caller's language and settings). */
export const SAMPLE_VALUES: Record<string, string | number> = {
  code: '246810',
  minutes: 10,
  url: 'https://admin.example.com/invitation/7f3c9a',
};

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** Fills `{{name}}` in a template; an unknown name is left empty (the save refuses such a template). */
export function fillTemplate(template: string, params: Record<string, unknown>): string {
  return template.replace(PLACEHOLDER, (_, name: string) => String(params[name] ?? ''));
}

/**
 * Message keys by field path (`templates.en.code_subject`) for a language's templates: a placeholder the
 * template does not accept (`settings.mail_templates.errors.placeholder|{"name":"x","allowed":"..."}`), or
 * a body without a subject. An empty subject and body is the built-in text, and valid.
 */
export function templateIssues(templates: Record<string, Record<string, string>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [locale, texts] of Object.entries(templates)) {
    for (const template of Object.keys(MAIL_TEMPLATES) as MailTemplate[]) {
      const allowed: readonly string[] = MAIL_TEMPLATES[template];
      const [subjectKey, bodyKey] = templateKeys(template);
      for (const key of [subjectKey, bodyKey]) {
        const unknown = [...(texts[key] ?? '').matchAll(PLACEHOLDER)]
          .map((m) => m[1]!)
          .find((name) => !allowed.includes(name));
        if (unknown)
          (out[`templates.${locale}.${key}`] ??= []).push(
            `settings.mail_templates.errors.placeholder|${JSON.stringify({ name: `{{${unknown}}}`, allowed: allowed.map((a) => `{{${a}}}`).join(' ') })}`,
          );
      }
      if ((texts[bodyKey] ?? '').trim() && !(texts[subjectKey] ?? '').trim())
        (out[`templates.${locale}.${subjectKey}`] ??= []).push('settings.mail_templates.errors.subject');
    }
  }
  return out;
}
