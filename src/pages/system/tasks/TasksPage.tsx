import AddIcon from '@mui/icons-material/Add';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { DataState } from '../../../components/DataState.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { TaskFormDialog } from './TaskFormDialog.tsx';
import { TaskRuns } from './TaskRuns.tsx';
import { formatTime } from './taskApi.ts';
import { taskName } from '../systemNames.ts';
import { useTasksPage } from './useTasksPage.ts';

const COLUMNS = ['name', 'handler', 'cron', 'timezone', 'state', 'last_run_at', 'next_run_at'] as const;

/**
 * `/settings/tasks`: the scheduled tasks (name, handler, cron, time zone, state, last and next run), create
 * and edit in a dialog (handler select, parameters, cron with its next five run times), run now after
 * confirming, and the selected task's run history. The view of useTasksPage.
 */
export function TasksPage() {
  const { t, i18n } = useTranslation();
  const page = useTasksPage();

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <div>
          <Typography variant="body2" color="text.secondary">
            {t('system.tasks.subtitle')}
          </Typography>
        </div>
        {page.canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={page.startCreate}>
            {t('system.tasks.actions.create')}
          </Button>
        )}
      </Stack>
      {page.notice && (
        <Alert severity="success" onClose={page.dismissNotice}>
          {page.notice}
        </Alert>
      )}
      {page.runError && <Alert severity="error">{page.runError}</Alert>}
      <Paper variant="outlined">
        <DataState
          isPending={page.isPending}
          error={page.listError}
          isEmpty={page.tasks.length === 0}
          loadingLabel={t('system.tasks.loading')}
          emptyLabel={t('system.tasks.empty')}
        >
          <TableScroll label={t('system.tasks.title')}>
            <Table size="small" aria-label={t('system.tasks.title')}>
              <TableHead>
                <TableRow>
                  {COLUMNS.map((f) => (
                    <TableCell key={f}>{t(`system.tasks.fields.${f}`)}</TableCell>
                  ))}
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {page.tasks.map((task) => (
                  <TableRow key={task.id} hover selected={page.selected?.id === task.id}>
                    <TableCell>{taskName(t, task.name)}</TableCell>
                    <TableCell title={task.handler}>{page.handlerLabel(task.handler)}</TableCell>
                    <TableCell>
                      <code>{task.cron}</code>
                    </TableCell>
                    <TableCell>{task.timezone}</TableCell>
                    <TableCell>
                      <Chip
                        size="small"
                        color={task.state ? 'success' : 'default'}
                        label={t(task.state ? 'system.tasks.enabled' : 'system.tasks.disabled')}
                      />
                    </TableCell>
                    <TableCell>{formatTime(task.last_run_at, i18n.language)}</TableCell>
                    <TableCell>{formatTime(task.next_run_at, i18n.language)}</TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <Button size="small" onClick={() => page.showHistory(task)} data-row-primary>
                        {t('system.tasks.actions.history')}
                      </Button>
                      {page.canUpdate && (
                        <>
                          <Button size="small" onClick={() => page.startEdit(task)}>
                            {t('system.tasks.actions.edit')}
                          </Button>
                          <Button
                            size="small"
                            startIcon={<PlayArrowIcon />}
                            onClick={() => page.askRun(task)}
                          >
                            {t('system.tasks.actions.run_now')}
                          </Button>
                        </>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableScroll>
        </DataState>
      </Paper>
      {page.selected && <TaskRuns task={page.selected} />}
      {page.editing && (
        <TaskFormDialog
          task={page.editing === 'new' ? null : page.editing}
          onClose={page.closeEditor}
          onSaved={page.onSaved}
        />
      )}
      <Dialog open={page.confirmRun !== null} onClose={page.cancelRun}>
        <DialogTitle>
          {t('system.tasks.confirm_run', { name: taskName(t, page.confirmRun?.name ?? '') })}
        </DialogTitle>
        <DialogActions>
          <Button onClick={page.cancelRun}>{t('system.tasks.actions.cancel')}</Button>
          <Button variant="contained" onClick={page.confirmRunNow}>
            {t('system.tasks.actions.run_now')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
