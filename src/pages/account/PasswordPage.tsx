import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** Placeholder for the change-password form. */
export function PasswordPage() {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('app.account.password')}
      </Typography>
      <Typography color="text.secondary">{t('app.placeholder.description')}</Typography>
    </Stack>
  );
}
