import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../providers/httpError.ts';
import { getWechatIdentity, unlinkWechat } from './wechatApi.ts';

export const identityKey = ['wechat', 'identity'] as const;

/**
 * The account page's WeChat section: the linked WeChat user and an "Unlink" button (offered only when the
 * account has a password to sign in with). Renders nothing when WeChat sign-in is off and nothing is linked.
 *
 * @example
 * <WechatIdentityCard />
 */
export function WechatIdentityCard() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [isConfirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const { data } = useQuery({ queryKey: identityKey, queryFn: ({ signal }) => getWechatIdentity(signal) });
  const unlink = useMutation({
    mutationFn: unlinkWechat,
    onSuccess: async () => {
      setConfirming(false);
      setNotice(t('auth.wechat.account.unlinked'));
      await client.invalidateQueries({ queryKey: identityKey });
    },
    onError: () => setConfirming(false),
  });

  if (!data || (!data.enabled && !data.identity)) return null;
  const identity = data.identity;
  return (
    <Stack
      component="section"
      spacing={1}
      aria-labelledby="wechat-identity-title"
      sx={{ maxWidth: 480, mt: 4 }}
    >
      <Typography id="wechat-identity-title" variant="h6" component="h2">
        {t('auth.wechat.account.title')}
      </Typography>
      <div aria-live="polite">{notice ? <Alert severity="success">{notice}</Alert> : null}</div>
      {unlink.isError ? (
        <Alert severity="error" role="alert">
          {isHttpError(unlink.error) ? unlink.error.message : t('auth.errors.network')}
        </Alert>
      ) : null}
      {identity ? (
        <>
          <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
            <Avatar src={identity.avatar ?? undefined} alt="">
              {identity.nickname.slice(0, 1)}
            </Avatar>
            <Typography>{t('auth.wechat.account.linked', { nickname: identity.nickname })}</Typography>
          </Stack>
          {data.has_password ? (
            <Button
              variant="outlined"
              color="error"
              onClick={() => setConfirming(true)}
              sx={{ alignSelf: 'flex-start' }}
            >
              {t('auth.wechat.account.unlink')}
            </Button>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('auth.wechat.account.needs_password')}
            </Typography>
          )}
        </>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('auth.wechat.account.not_linked')}
        </Typography>
      )}
      <Dialog open={isConfirming} onClose={() => setConfirming(false)}>
        <DialogContent>
          <DialogContentText>
            {t('auth.wechat.account.confirm_unlink', { nickname: identity?.nickname ?? '' })}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirming(false)}>{t('auth.wechat.account.cancel')}</Button>
          <Button color="error" onClick={() => unlink.mutate()} disabled={unlink.isPending}>
            {t('auth.wechat.account.unlink')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
