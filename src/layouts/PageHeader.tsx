import Breadcrumbs from '@mui/material/Breadcrumbs';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { setPageTitle, useRecordLabel } from '../providers/pageTitleStore.ts';
import { pageTitleOf } from './pageTitle.ts';

/**
 * The top of every signed-in page, derived from the route and the resource registry (./pageTitle.ts):
 * breadcrumbs, the page's `<h1>` (unless the page renders its own: `heading={false}`), and the page part of
 * `document.title` ("<page> - <site name>", joined in useSiteTitle).
 */
export function PageHeader({ heading = true }: { heading?: boolean }) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const [, area, channel, id] = pathname.split('/');
  const recordLabel = useRecordLabel(area === 'settings' ? channel : undefined, id);
  const { title, crumbs } = pageTitleOf(pathname, t, { recordLabel, language: i18n.language });
  useEffect(() => setPageTitle(title), [title]);
  useEffect(() => () => setPageTitle(null), []);
  return (
    <>
      {/* A trail even of one step (the dashboard), so every signed-in page says where it sits. */}
      {crumbs.length > 0 ? (
        <Breadcrumbs aria-label={t('app.shell.breadcrumbs')} sx={{ mb: 1 }}>
          {crumbs.map((crumb, index) =>
            crumb.to ? (
              <Link key={index} component={RouterLink} to={crumb.to} underline="hover" color="inherit">
                {crumb.label}
              </Link>
            ) : (
              <Typography key={index} color="text.primary" aria-current="page">
                {crumb.label}
              </Typography>
            ),
          )}
        </Breadcrumbs>
      ) : null}
      {heading ? (
        <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
          {title}
        </Typography>
      ) : null}
    </>
  );
}
