import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { STAFF_INCLUDE, profileKey } from '../../providers/profile.ts';
import type { Profile } from '../../providers/profile.ts';

/** Staff landing page: a greeting and shortcuts (figures come with later work). */
export function DashboardPage() {
  const { t } = useTranslation();
  const { data } = useQuery<Profile>({ queryKey: profileKey(STAFF_INCLUDE), enabled: false });
  const links = [
    { to: '/settings', label: t('app.nav.settings') },
    { to: '/account/profile', label: t('app.nav.account') },
  ];
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('app.dashboard.title')}
      </Typography>
      {data ? (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {t('app.dashboard.welcome', { name: data.name || data.username })}
        </Typography>
      ) : null}
      <Grid container spacing={2}>
        {links.map((link) => (
          <Grid key={link.to} size={{ xs: 12, sm: 6, md: 4 }}>
            <Card>
              <CardActionArea component={RouterLink} to={link.to}>
                <CardContent>
                  <Typography variant="h6" component="h2">
                    {link.label}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}
