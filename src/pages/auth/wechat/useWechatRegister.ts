import { useState } from 'react';
import type { FormEvent } from 'react';
import * as z from 'zod';
import type { Channel } from '../../../../schemas/auth.ts';
import { channelField } from '../CaptchaButton.tsx';
import { useAuthForm } from '../useAuthForm.ts';
import { wechatRegister } from './wechatApi.ts';
import type { WechatTicket, WechatToken } from './wechatApi.ts';

const linkSchema = z.object({
  username: z.string().trim().min(1, 'validation.username_required'),
  password: z.string().min(1, 'validation.password_required'),
});
const newSchema = z.looseObject({ username: z.string().trim().min(1, 'validation.username_required') });

export type WechatRegisterMode = 'new' | 'link';

/**
 * The WeChat registration form's state and submit (the controller; WechatRegisterForm only renders): a new
 * account (username, optional password, optional email or phone with a code) or a link to an existing
 * one with its password; a new account only while registration is open.
 *
 * @example
 * const register = useWechatRegister({ ticket, onDone }); <form onSubmit={register.onSubmit}>...
 */
export function useWechatRegister({
  ticket,
  onDone,
}: {
  ticket: WechatTicket;
  onDone: (token: WechatToken) => void;
}) {
  const form = useAuthForm();
  const [mode, setMode] = useState<WechatRegisterMode>(ticket.registration ? 'new' : 'link');
  const [notice, setNotice] = useState<string | null>(null);
  const [hasContact, setHasContact] = useState(false);
  const [values, setValues] = useState({
    username: '',
    password: '',
    password_confirmation: '',
    channel: 'email' as Channel,
    to: '',
    captcha: '',
  });
  const [link, setLink] = useState({ username: '', password: '' });

  function newBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { ticket: ticket.registration_ticket, username: values.username };
    if (values.password) {
      body.password = values.password;
      body.password_confirmation = values.password_confirmation;
    }
    if (hasContact) {
      body[channelField(values.channel)] = values.to.trim();
      body.captcha = values.captcha.trim();
    }
    return body;
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    let token: WechatToken | null = null;
    const isDone =
      mode === 'link'
        ? await form.submit(linkSchema, link, async (data) => {
            token = await wechatRegister({ ticket: ticket.registration_ticket, link: data });
          })
        : await form.submit(newSchema, newBody(), async (data) => {
            token = await wechatRegister(data);
          });
    if (isDone && token) onDone(token);
  };

  return {
    form,
    mode,
    setMode,
    notice,
    setNotice,
    hasContact,
    setHasContact,
    values,
    changeValues: (next: Partial<typeof values>) => setValues((current) => ({ ...current, ...next })),
    link,
    changeLink: (next: Partial<typeof link>) => setLink((current) => ({ ...current, ...next })),
    onSubmit,
  };
}
