import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { formatDateTime } from '../../lib/localeDate.ts';
import {
  ActivityAction,
  ActivityChanges,
  ActivityOperator,
  ActivitySubject,
} from '../settings/activities/ActivityText.tsx';
import type { DashboardData } from './dashboardApi.ts';

type Activity = NonNullable<DashboardData['recent_activity']>;

/** The latest entries of the activity log (who, what, on which record, when, what changed). */
export function RecentActivityCard({ recent }: { recent: Activity }) {
  const { t, i18n } = useTranslation();
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2">
          {t('system.dashboard.recent_activity')}
        </Typography>
        <List dense aria-label={t('system.dashboard.recent_activity')}>
          {recent.map((a) => (
            <ListItem key={a.id} disableGutters alignItems="flex-start">
              <ListItemText
                primary={
                  <>
                    <ActivityOperator row={a} /> · <ActivityAction row={a} />
                    {a.subject_type ? (
                      <>
                        {' · '}
                        <ActivitySubject row={a} />
                      </>
                    ) : null}
                  </>
                }
                secondary={
                  <>
                    {formatDateTime(a.created_at, i18n.language)}
                    <ActivityChanges row={a} rows={recent} />
                  </>
                }
                slotProps={{ secondary: { component: 'div' } }}
              />
            </ListItem>
          ))}
          {recent.length === 0 ? (
            <ListItem disableGutters>
              <ListItemText secondary={t('system.dashboard.no_activity')} />
            </ListItem>
          ) : null}
        </List>
        <Link component={RouterLink} to="/settings/activities">
          {t('system.dashboard.all_activity')}
        </Link>
      </CardContent>
    </Card>
  );
}
