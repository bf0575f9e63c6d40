import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type * as z from 'zod';
import { templateIssues } from '../../../../schemas/mailTemplates.ts';
import { decodeMessage, issueKey } from '../../../../schemas/messages.ts';
import type { GROUP_FIELDS } from './groupFields.ts';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Validates a settings form with the group's own zod schema and the server's message keys, so the page
 * shows the same sentences a POST would return. Blank secrets are left out (they keep the stored value).
 */
export function settingsResolver({
  schema,
  fields,
  translate,
}: {
  schema: z.ZodObject;
  fields: (typeof GROUP_FIELDS)[keyof typeof GROUP_FIELDS];
  translate: Translate;
}): Resolver<FieldValues> {
  return async (values) => {
    const result = await schema.safeParseAsync(settingsPayload(values, fields), {
      error: (iss) => issueKey(iss),
    });
    if (result.success) {
      // Mail templates: the server's own check on save (schemas/mailTemplates.ts), per field.
      const templates = fields.some((f) => f.kind === 'templates')
        ? templateIssues((values.templates ?? {}) as Record<string, Record<string, string>>)
        : {};
      if (!Object.keys(templates).length) return { values, errors: {} };
      const nested: Record<string, unknown> = {};
      for (const [path, messages] of Object.entries(templates)) {
        const parts = path.split('.');
        let at = nested;
        for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
        const { key, params } = decodeMessage(messages[0]!);
        at[parts[parts.length - 1]!] = { type: 'template', message: translate(key, { _: key, ...params }) };
      }
      return { values: {}, errors: nested as FieldErrors };
    }
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? 'root');
      if (errors[name]) continue;
      const { key, params } = decodeMessage(issue.message);
      errors[name] = { type: issue.code, message: translate(key, { _: key, ...params }) };
    }
    return { values: {}, errors: errors as FieldErrors };
  };
}

/** What the form sends: the group's keys only; a blank secret becomes '' (the server keeps the old value). */
export function settingsPayload(
  values: Record<string, unknown>,
  fields: (typeof GROUP_FIELDS)[keyof typeof GROUP_FIELDS],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const value = values[f.key];
    if (f.kind === 'secret') out[f.key] = typeof value === 'string' ? value : '';
    else if (f.kind === 'oidc' && Array.isArray(value)) out[f.key] = value.map(withoutSecretFlag);
    else if (value !== undefined) out[f.key] = value;
  }
  return out;
}

/** A provider entry as sent: no `client_secret_set`, a blank secret as '' (the server keeps the stored one). */
function withoutSecretFlag(entry: unknown): unknown {
  if (!entry || typeof entry !== 'object') return entry;
  const { client_secret_set: _isSet, ...rest } = entry as Record<string, unknown>;
  return { ...rest, client_secret: typeof rest.client_secret === 'string' ? rest.client_secret : '' };
}
