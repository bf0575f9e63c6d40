import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { WechatRegisterMode } from './useWechatRegister.ts';
import type { WechatTicket } from './wechatApi.ts';

/** Whom WeChat signed in (avatar, greeting), then new account or link, or why only linking is open. */
export function WechatRegisterIntro({
  ticket,
  mode,
  onMode,
}: {
  ticket: WechatTicket;
  mode: WechatRegisterMode;
  onMode: (mode: WechatRegisterMode) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Avatar src={ticket.avatar ?? undefined} alt="">
          {ticket.nickname.slice(0, 1)}
        </Avatar>
        <Typography variant="body2">
          {t('auth.wechat.register.greeting', { nickname: ticket.nickname })}
        </Typography>
      </Stack>
      {ticket.registration ? (
        <Tabs value={mode} onChange={(_e, value: WechatRegisterMode) => onMode(value)} variant="fullWidth">
          <Tab value="new" label={t('auth.wechat.register.new_account')} />
          <Tab value="link" label={t('auth.wechat.register.link_account')} />
        </Tabs>
      ) : (
        <Alert severity="info">{t('auth.wechat.register.closed')}</Alert>
      )}
    </>
  );
}
