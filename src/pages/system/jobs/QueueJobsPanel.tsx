import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { JobsTable } from './JobsTable.tsx';
import { JOB_STATES, type useJobsPage } from './useJobsPage.ts';

/** The chosen queue: its name, the state filter and its jobs with their retry/cancel buttons. */
export function QueueJobsPanel({ page }: { page: ReturnType<typeof useJobsPage> }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {page.queueTitle}
        </Typography>
        <TextField
          select
          size="small"
          label={t('system.jobs.fields.state')}
          value={page.state}
          onChange={(e) => page.chooseState(e.target.value)}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value="">{t('system.jobs.all_states')}</MenuItem>
          {JOB_STATES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`system.jobs.states.${s}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <JobsTable
        jobs={page.jobs}
        isPending={page.isJobsPending}
        error={page.jobsError}
        canUpdate={page.canUpdate}
        onAction={page.ask}
      />
    </Paper>
  );
}
