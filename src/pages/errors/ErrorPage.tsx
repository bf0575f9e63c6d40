import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { forgetSiteStatus } from '../../providers/siteStatus.ts';
import { AppLink, useNavigation } from '../../routes/navigation.tsx';

export type ErrorCode = 403 | 404 | 500;

/**
 * The error pages of spec 8: 403 "Unauthenticated" (non-staff on a staff route), 500 "Server error" (system
 * not ready) and 404 "Page not found". MUI only, so it renders even when the admin chunk cannot load.
 */
export function ErrorPage({ code }: { code: ErrorCode }) {
  const { t } = useTranslation();
  const { navigate } = useNavigation();
  const title = t(`app.errors.${code}.title`);

  useEffect(() => {
    const previous = document.title;
    document.title = `${code} · ${title}`;
    return () => {
      document.title = previous;
    };
  }, [code, title]);

  const retry = () => {
    // Ask the server again instead of trusting the cached "not ready".
    forgetSiteStatus();
    navigate('/dashboard');
  };

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        textAlign: 'center',
        gap: 2,
        p: 3,
        bgcolor: 'background.default',
        color: 'text.primary',
      }}
    >
      <Typography variant="h2" component="p" color="text.secondary" aria-hidden="true">
        {code}
      </Typography>
      <Typography variant="h4" component="h1">
        {title}
      </Typography>
      <Typography color="text.secondary">{t(`app.errors.${code}.description`)}</Typography>
      {code === 500 ? (
        <Button variant="contained" onClick={retry}>
          {t('app.retry')}
        </Button>
      ) : (
        <Button variant="contained" component={AppLink} to="/">
          {t('app.back_home')}
        </Button>
      )}
    </Box>
  );
}
