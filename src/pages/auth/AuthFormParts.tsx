import type { FormEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../navigation/navigation.tsx';
import { Alert, Button, Spinner, TextField } from '../../public-ui/controls.tsx';
import { preloadAuthSchemas } from './loadAuthSchemas.ts';
import type { useAuthForm } from './useAuthForm.ts';

type AuthForm = ReturnType<typeof useAuthForm>;

/**
 * The frame of the sign-in, register, reset and WeChat registration forms: a titled form (the schemas load
 * when focus enters it, unless `preloadSchemas` is false: the sign-in form loads them only for a message), what
 * the form is about (`intro`), the form-level error, the fields, a submit button
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
  preloadSchemas = true,
}: {
  id: string;
  title: string;
  submitLabel: string;
  form: Pick<AuthForm, 'isSubmitting' | 'formError'>;
  onSubmit: (event: FormEvent<HTMLFormElement>) => Promise<void>;
  children: ReactNode;
  intro?: ReactNode;
  footer?: ReactNode;
  preloadSchemas?: boolean;
}) {
  return (
    <form
      className="pu-stack"
      noValidate
      onFocus={preloadSchemas ? preloadAuthSchemas : undefined}
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

/**
 * What a sign-in page shows while it finishes a return from an outside provider (WeChat, OpenID): a
 * spinner with `label`, or the reason it failed and the way back to the sign-in form.
 *
 * @example
 * return <SignInReturnStatus error={error} label={t('auth.oidc.signing_in')} backTo="/login" />;
 */
export function SignInReturnStatus({
  error,
  label,
  backTo,
}: {
  error: string | null;
  label: string;
  backTo: string;
}) {
  const { t } = useTranslation();
  if (error) {
    return (
      <div className="pu-stack-2">
        <Alert severity="error" role="alert">
          {error}
        </Alert>
        <AppLink className="pu-link" to={backTo} replace>
          {t('auth.wechat.back_to_login')}
        </AppLink>
      </div>
    );
  }
  return (
    <div className="pu-row pu-row-center" role="status">
      <Spinner size="small" />
      <p className="pu-plain">{label}</p>
    </div>
  );
}
