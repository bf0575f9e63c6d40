import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { httpClient } from '../../providers/httpClient.ts';
import { USER_INCLUDE, profileKey } from '../../providers/profile.ts';
import type { Profile } from '../../providers/profile.ts';
import { WechatIdentityCard } from '../auth/wechat/WechatIdentityCard.tsx';
import { ProfileForm } from './ProfileForm.tsx';

/** The signed-in user's name, email and phone; a new email or phone needs a code sent to it. */
export function ProfilePage() {
  const { t } = useTranslation();
  const { data, isPending, isError } = useQuery<Profile>({
    queryKey: profileKey(USER_INCLUDE),
    queryFn: ({ signal }) =>
      httpClient<Profile>('v1/user/profile', { query: { include: USER_INCLUDE }, signal }),
  });
  if (isPending) return <CircularProgress aria-label={t('auth.profile.title')} />;
  if (isError || !data) {
    return (
      <Alert severity="error" role="alert">
        {t('auth.errors.generic')}
      </Alert>
    );
  }
  return (
    <>
      <ProfileForm profile={data} />
      <WechatIdentityCard />
    </>
  );
}
