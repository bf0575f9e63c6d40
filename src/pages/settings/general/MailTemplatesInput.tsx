import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { TextInput, useTranslate } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { LOCALES } from '../../../../locales/languages.ts';
import { MAIL_TEMPLATES, templateKeys, type MailTemplate } from '../../../../schemas/mailTemplates.ts';
import { httpClient } from '../../../providers/httpClient.ts';
import { isHttpError } from '../../../providers/httpError.ts';

const label = (key: string) => `settings.mail_templates.${key}`;

/**
 * The `message.templates` editor (issue 34 item 6): a subject and a body per language and mail, with the
 * placeholders each mail accepts, checked as the server checks them (settingsResolver.ts), and a preview
 * the server renders with the mailer's own code. The preview is shown as text, never as HTML.
 *
 * @example
 * <MailTemplatesInput source="templates" />
 */
export function MailTemplatesInput({ source }: { source: string }) {
  const translate = useTranslate();
  return (
    <Box sx={{ display: 'grid', gap: 2, width: '100%' }}>
      {LOCALES.map((locale) =>
        (Object.keys(MAIL_TEMPLATES) as MailTemplate[]).map((template) => (
          <Box
            key={`${locale}-${template}`}
            component="fieldset"
            sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, m: 0, minWidth: 0 }}
          >
            <Typography component="legend" variant="subtitle2" sx={{ px: 0.5 }}>
              {translate(label(`templates.${template}`))} · {translate(`settings.general.options.${locale}`)}
            </Typography>
            <TemplateFields source={source} locale={locale} template={template} />
          </Box>
        )),
      )}
    </Box>
  );
}

function TemplateFields({
  source,
  locale,
  template,
}: {
  source: string;
  locale: string;
  template: MailTemplate;
}) {
  const translate = useTranslate();
  const { getValues } = useFormContext();
  const [subjectKey, bodyKey] = templateKeys(template);
  const path = (key: string) => `${source}.${locale}.${key}`;
  const placeholders = MAIL_TEMPLATES[template].map((name) => `{{${name}}}`).join(' ');
  const [preview, setPreview] = useState<{ subject: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const showPreview = async () => {
    setError(null);
    try {
      setPreview(
        await httpClient<{ subject: string; text: string }>('v1/settings/message/preview', {
          method: 'POST',
          body: {
            locale,
            template,
            subject: String(getValues(path(subjectKey)) ?? ''),
            body: String(getValues(path(bodyKey)) ?? ''),
          },
        }),
      );
    } catch (err) {
      setPreview(null);
      const first = isHttpError(err) ? Object.values(err.errors)[0]?.[0] : undefined;
      setError(first ?? translate(label('preview_failed')));
    }
  };
  return (
    <>
      <TextInput
        source={path(subjectKey)}
        label={label('subject')}

        helperText={false}
      />
      <TextInput
        source={path(bodyKey)}
        label={label('body')}
        multiline
        minRows={3}
        helperText={translate(label('placeholders'), { list: placeholders })}
      />
      <Button variant="outlined" size="small" onClick={() => void showPreview()}>
        {translate(label('preview'))}
      </Button>
      {error && (
        <Typography role="alert" color="error" variant="body2" sx={{ mt: 1 }}>
          {error}
        </Typography>
      )}
      {preview && (
        <Box
          role="region"
          aria-label={translate(label('preview'))}
          sx={{ mt: 1, p: 1.5, bgcolor: 'action.hover', borderRadius: 1 }}
        >
          <Typography variant="subtitle2" sx={{ overflowWrap: 'anywhere' }}>
            {preview.subject}
          </Typography>
          <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {preview.text}
          </Typography>
        </Box>
      )}
    </>
  );
}
