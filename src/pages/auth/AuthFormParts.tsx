import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, TextField } from '../../public-ui/controls.tsx';
import { preloadAuthSchemas } from './loadAuthSchemas.ts';
import type { useAuthForm } from './useAuthForm.ts';

type AuthForm = ReturnType<typeof useAuthForm>;

/**
 * The frame of the sign-in, register, reset and WeChat registration forms: a titled form (the schemas load
 * when focus enters it), what the form is about (`intro`), the form-level error, the fields, a submit button
 * that shows progress, and the links under it.
 *
 * @example
 * <AuthFormFrame id="reset" title={t('auth.reset.title')} submitLabel={t('auth.reset.submit')} form={form}
 *   onSubmit={onSubmit} footer={<Link ...>}>{fields}</AuthFormFrame>
 */
export function AuthFormFrame({
  id,
  title,
  submitLabel,
  form,
  onSubmit,
  children,
  intro,
  footer,
}: {
  id: string;
  title: string;
  submitLabel: string;
  form: Pick<AuthForm, 'isSubmitting' | 'formError'>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  children: ReactNode;
  intro?: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <form
      className="pu-stack"
      noValidate
      onFocus={preloadAuthSchemas}
      onSubmit={(event) => void onSubmit(event)}
      aria-labelledby={`${id}-title`}
      aria-busy={form.isSubmitting}
    >
      <h1 id={`${id}-title`} className="pu-title">
        {title}
      </h1>
      {intro}
      {form.formError ? (
        <Alert severity="error" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      {children}
      <Button type="submit" variant="contained" size="large" busy={form.isSubmitting}>
        {submitLabel}
      </Button>
      {footer}
    </form>
  );
}

/** A new password and its confirmation, with the server's messages under each. */
export function PasswordPairFields({
  form,
  label,
  password,
  confirmation,
  onChange,
}: {
  form: Pick<AuthForm, 'fieldProps'>;
  label: string;
  password: string;
  confirmation: string;
  onChange: (next: { password?: string; password_confirmation?: string }) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        {...form.fieldProps('password')}
        type="password"
        label={label}
        autoComplete="new-password"
        value={password}
        onChange={(e) => onChange({ password: e.target.value })}
        required
      />
      <TextField
        {...form.fieldProps('password_confirmation')}
        type="password"
        label={t('auth.fields.password_confirmation')}
        autoComplete="new-password"
        value={confirmation}
        onChange={(e) => onChange({ password_confirmation: e.target.value })}
        required
      />
    </>
  );
}
