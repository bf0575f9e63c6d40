import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

/** A preview run time in the task's time zone, written as the interface language writes times (24-hour). */
const RUN_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
};

/** The cron's next five run times in its time zone, or a line saying the cron is not valid. */
export function NextRuns({ runs, timeZone }: { runs: string[] | undefined; timeZone: string }) {
  const { t, i18n } = useTranslation();
  return (
    <div>
      <Typography variant="subtitle2">{t('system.tasks.form.next_runs')}</Typography>
      {runs ? (
        <ol aria-label={t('system.tasks.form.next_runs')}>
          {runs.map((r) => (
            <li key={r}>{new Date(r).toLocaleString(i18n.language, { ...RUN_TIME, timeZone })}</li>
          ))}
        </ol>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('system.tasks.form.invalid_cron')}
        </Typography>
      )}
    </div>
  );
}
