import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_INCLUDE, profileKey } from '../../providers/profile.ts';
import type { Profile } from '../../providers/profile.ts';

/** Placeholder profile page: shows who is signed in (the guard has loaded the profile already). */
export function ProfilePage() {
  const { t } = useTranslation();
  const { data } = useQuery<Profile>({ queryKey: profileKey(USER_INCLUDE), enabled: false });
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('app.account.profile')}
      </Typography>
      {data ? (
        <Typography>{t('app.account.signed_in_as', { name: data.name || data.username })}</Typography>
      ) : null}
      <Typography color="text.secondary">{t('app.placeholder.description')}</Typography>
    </Stack>
  );
}
