import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { z } from 'zod';
import type { Channel } from '../../../../schemas/auth.ts';
import { channelField } from '../CaptchaButton.tsx';
import { ChannelFields } from '../ChannelFields.tsx';
import { useAuthForm } from '../useAuthForm.ts';
import { wechatRegister } from './wechatApi.ts';
import type { WechatTicket, WechatToken } from './wechatApi.ts';

const linkSchema = z.object({
  username: z.string().trim().min(1, 'validation.username_required'),
  password: z.string().min(1, 'validation.password_required'),
});
const newSchema = z.looseObject({ username: z.string().trim().min(1, 'validation.username_required') });

/**
 * After WeChat sign-in of a user who is not linked yet: create a new account (username, optional password,
 * optional email or phone with a code) or link an existing one with its password.
 */
export function WechatRegisterForm({
  ticket,
  onDone,
  backTo,
}: {
  ticket: WechatTicket;
  onDone: (token: WechatToken) => void;
  backTo: string;
}) {
  const { t } = useTranslation();
  const form = useAuthForm();
  const [mode, setMode] = useState<'new' | 'link'>(ticket.registration ? 'new' : 'link');
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

  return (
    <Stack
      component="form"
      noValidate
      spacing={1}
      onSubmit={(event) => void onSubmit(event)}
      aria-labelledby="wechat-register-title"
      aria-busy={form.isSubmitting}
    >
      <Typography id="wechat-register-title" variant="h5" component="h1">
        {t('auth.wechat.register.title')}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Avatar src={ticket.avatar ?? undefined} alt="">
          {ticket.nickname.slice(0, 1)}
        </Avatar>
        <Typography variant="body2">
          {t('auth.wechat.register.greeting', { nickname: ticket.nickname })}
        </Typography>
      </Stack>
      {ticket.registration ? (
        <Tabs value={mode} onChange={(_e, value: 'new' | 'link') => setMode(value)} variant="fullWidth">
          <Tab value="new" label={t('auth.wechat.register.new_account')} />
          <Tab value="link" label={t('auth.wechat.register.link_account')} />
        </Tabs>
      ) : (
        <Alert severity="info">{t('auth.wechat.register.closed')}</Alert>
      )}
      {form.formError ? (
        <Alert severity="error" role="alert">
          {form.formError}
        </Alert>
      ) : null}
      {mode === 'link' ? (
        <>
          <TextField
            {...form.fieldProps('username')}
            label={t('auth.fields.account')}
            autoComplete="username"
            value={link.username}
            onChange={(e) => setLink({ ...link, username: e.target.value })}
            required
            fullWidth
          />
          <TextField
            {...form.fieldProps('password')}
            type="password"
            label={t('auth.fields.password')}
            autoComplete="current-password"
            value={link.password}
            onChange={(e) => setLink({ ...link, password: e.target.value })}
            required
            fullWidth
          />
        </>
      ) : (
        <>
          <TextField
            {...form.fieldProps('username')}
            label={t('auth.fields.username')}
            autoComplete="username"
            value={values.username}
            onChange={(e) => setValues({ ...values, username: e.target.value })}
            required
            fullWidth
          />
          <TextField
            {...form.fieldProps('password')}
            type="password"
            label={t('auth.wechat.register.password_optional')}
            autoComplete="new-password"
            value={values.password}
            onChange={(e) => setValues({ ...values, password: e.target.value })}
            fullWidth
          />
          {values.password ? (
            <TextField
              {...form.fieldProps('password_confirmation')}
              type="password"
              label={t('auth.fields.password_confirmation')}
              autoComplete="new-password"
              value={values.password_confirmation}
              onChange={(e) => setValues({ ...values, password_confirmation: e.target.value })}
              fullWidth
            />
          ) : null}
          <FormControlLabel
            control={<Checkbox checked={hasContact} onChange={(e) => setHasContact(e.target.checked)} />}
            label={t('auth.wechat.register.contact_hint')}
          />
          {hasContact ? (
            <ChannelFields
              form={form}
              scene="register"
              channel={values.channel}
              to={values.to}
              captcha={values.captcha}
              notice={notice}
              onNotice={setNotice}
              onChange={(next) => setValues({ ...values, ...next })}
            />
          ) : null}
        </>
      )}
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={form.isSubmitting}
        startIcon={form.isSubmitting ? <CircularProgress size={18} color="inherit" /> : null}
      >
        {mode === 'link' ? t('auth.wechat.register.submit_link') : t('auth.wechat.register.submit_new')}
      </Button>
      <Link component={RouterLink} to={backTo} replace>
        {t('auth.wechat.back_to_login')}
      </Link>
    </Stack>
  );
}
