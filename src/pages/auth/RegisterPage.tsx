import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';

/** Placeholder until the account work lands; the route and its layout are final. */
export function RegisterPage() {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('app.register.title')}
      </Typography>
      <Typography color="text.secondary">{t('app.placeholder.description')}</Typography>
      <Link component={RouterLink} to="/login">
        {t('app.register.back_to_login')}
      </Link>
    </Stack>
  );
}
