import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type * as z from 'zod';
import type * as Messages from '../../../schemas/messages.ts';
import { isHttpError } from '../../providers/httpError.ts';
import type { FieldErrors } from '../../providers/httpError.ts';

/**
 * Form state shared by the account pages: submitting flag, per-field errors (from the shared zod schema before
 * sending, then from the server's 422 `errors` map; the schema may come as a loader) and one form-level message for everything else (429,
 * 403, network). Example: `const form = useAuthForm(); form.submit(loginSchema, values, (data) => login(data))`.
 */
export function useAuthForm() {
  const { t } = useTranslation();
  const [isSubmitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const isLoadingSchema = useRef(false);

  async function submit<S extends z.ZodType>(
    schema: S | (() => Promise<S>),
    values: unknown,
    send: (data: z.output<S>) => Promise<void>,
    { asIs }: { asIs?: z.output<S> } = {},
  ): Promise<boolean> {
    let data: z.output<S>;
    if (asIs !== undefined) {
      // Values the caller knows the schema accepts as they are: sent without loading it (the server parses
      // them with the same schema), so a plain sign-in never downloads zod.
      data = asIs;
    } else {
      // A schema given as a loader is fetched on first use (see loadAuthSchemas); a second submit while
      // it loads is ignored, as the disabled button ignores one while sending.
      if (isLoadingSchema.current) return false;
      let resolved: S;
      // The issue keys come with the schema: a plain sign-in needs neither.
      let messages: typeof Messages;
      try {
        isLoadingSchema.current = true;
        [resolved, messages] = await Promise.all([
          typeof schema === 'function' ? schema() : schema,
          import('../../../schemas/messages.ts'),
        ]);
      } catch {
        setFormError(t('auth.errors.network'));
        return false;
      } finally {
        isLoadingSchema.current = false;
      }
      const parsed = resolved.safeParse(values, { error: (iss) => messages.issueKey(iss) });
      if (!parsed.success) {
        setErrors(messages.fieldErrors(parsed.error, (key, params) => t(key, params)));
        setFormError(null);
        return false;
      }
      data = parsed.data;
    }
    setSubmitting(true);
    setErrors({});
    setFormError(null);
    try {
      await send(data);
      return true;
    } catch (error) {
      if (isHttpError(error) && Object.keys(error.errors).length > 0) setErrors(error.errors);
      else if (isHttpError(error)) setFormError(error.message || t('auth.errors.generic'));
      else setFormError(t('auth.errors.network'));
      return false;
    } finally {
      setSubmitting(false);
    }
  }

  /** Props that put a field's first message under it (MUI TextField); `aliases` are other names the server may use. */
  function fieldProps(name: string, ...aliases: string[]) {
    const message = [name, ...aliases].map((key) => errors[key]?.[0]).find(Boolean);
    return { name, error: Boolean(message), helperText: message ?? ' ' };
  }

  return { isSubmitting, errors, formError, setFormError, setErrors, submit, fieldProps };
}
