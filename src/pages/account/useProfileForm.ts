import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { profileUpdateSchema } from '../../../schemas/auth.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { clearProfile, type Profile } from '../../providers/profile.ts';
import { useAuthForm } from '../auth/useAuthForm.ts';

export type ProfileField = 'name' | 'email' | 'phone' | 'captcha';

/**
 * Everything the profile form does (the controller; ProfileForm only renders): the values, whether a new
 * email or phone needs a code (sent to the new address), saving only what changed, and the notice.
 *
 * @example
 * const form = useProfileForm(profile); form.set('email', 'new@example.com'); form.needsCode === true
 */
export function useProfileForm(profile: Profile) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const form = useAuthForm();
  const [notice, setNotice] = useState<string | null>(null);
  const [values, setValues] = useState<Record<ProfileField, string>>({
    name: profile.name ?? '',
    email: profile.email ?? '',
    phone: profile.phone ?? '',
    captcha: '',
  });
  const isEmailChanged = values.email.trim() !== (profile.email ?? '') && values.email.trim() !== '';
  const isPhoneChanged = values.phone.trim() !== (profile.phone ?? '') && values.phone.trim() !== '';
  const needsCode = isEmailChanged || isPhoneChanged;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body: Record<string, string> = { name: values.name };
    if (isEmailChanged) body.email = values.email.trim();
    if (isPhoneChanged) body.phone = values.phone.trim();
    if (needsCode) body.captcha = values.captcha.trim();
    setNotice(null);
    const isDone = await form.submit(profileUpdateSchema, body, async () => {
      await httpClient('v1/user/profile', { method: 'POST', body });
    });
    if (isDone) {
      clearProfile(client);
      setValues({ ...values, captcha: '' });
      setNotice(t('auth.profile.saved'));
    }
  };

  return {
    form,
    values,
    notice,
    needsCode,
    /** Where the code goes: the new email if it changed, else the new phone. */
    codeChannel: isEmailChanged ? ('email' as const) : ('sms' as const),
    codeTo: isEmailChanged ? values.email : values.phone,
    set: (field: ProfileField, value: string) => setValues({ ...values, [field]: value }),
    onSubmit: (event: FormEvent<HTMLFormElement>) => void submit(event),
    onCodeSent: setNotice,
    onCodeError: ({ field, message }: { field?: string; message: string }) => {
      setNotice(null);
      if (field) form.setErrors({ [field]: [message] });
      else form.setFormError(message);
    },
  };
}
