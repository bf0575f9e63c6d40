import AddIcon from '@mui/icons-material/Add';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
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
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION, actionPermission } from '../../../../schemas/permissions.ts';
import { useCan } from '../../../providers/useCan.ts';
import { TaskFormDialog } from './TaskFormDialog.tsx';
import { TaskRuns } from './TaskRuns.tsx';
import { TASKS_KEY, formatTime, taskApi, type WireTask } from './taskApi.ts';

/**
 * `/settings/tasks`: the scheduled tasks (handler, cron, time zone, state, last and next run), create and
 * edit in a dialog (handler select, parameters, cron with its next five run times), run now after
 * confirming, and the selected task's run history.
 */
export function TasksPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const canCreate = useCan(actionPermission(PERMISSION.systemTasks, 'create'));
  const canUpdate = useCan(actionPermission(PERMISSION.systemTasks, 'update'));
  const [editing, setEditing] = useState<WireTask | 'new' | null>(null);
  const [selected, setSelected] = useState<WireTask | null>(null);
  const [confirmRun, setConfirmRun] = useState<WireTask | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery({ queryKey: TASKS_KEY, queryFn: taskApi.list });
  const run = useMutation({
    mutationFn: (task: WireTask) => taskApi.run(task.id),
    onSuccess: async (_res, task) => {
      setNotice(t('system.tasks.run_started'));
      setSelected(task);
      await queryClient.invalidateQueries({ queryKey: [...TASKS_KEY, 'runs', task.id] });
    },
  });
  const tasks = list.data?.data ?? [];

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <div>
          <Typography variant="body2" color="text.secondary">
            {t('system.tasks.subtitle')}
          </Typography>
        </div>
        {canCreate && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing('new')}>
            {t('system.tasks.actions.create')}
          </Button>
        )}
      </Stack>
      {notice && (
        <Alert severity="success" onClose={() => setNotice(null)}>
          {notice}
        </Alert>
      )}
      {(list.error || run.error) && <Alert severity="error">{(list.error ?? run.error)!.message}</Alert>}
      <Paper variant="outlined">
        {list.isPending ? (
          <Stack direction="row" spacing={1} sx={{ p: 3, alignItems: 'center' }} role="status">
            <CircularProgress size={20} />
            <span>{t('system.tasks.loading')}</span>
          </Stack>
        ) : tasks.length === 0 ? (
          <Typography sx={{ p: 3 }}>{t('system.tasks.empty')}</Typography>
        ) : (
          <Table size="small" aria-label={t('system.tasks.title')}>
            <TableHead>
              <TableRow>
                {(
                  ['name', 'handler', 'cron', 'timezone', 'state', 'last_run_at', 'next_run_at'] as const
                ).map((f) => (
                  <TableCell key={f}>{t(`system.tasks.fields.${f}`)}</TableCell>
                ))}
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {tasks.map((task) => (
                <TableRow key={task.id} hover selected={selected?.id === task.id}>
                  <TableCell>{task.name}</TableCell>
                  <TableCell>
                    <code>{task.handler}</code>
                  </TableCell>
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
                    <Button size="small" onClick={() => setSelected(task)}>
                      {t('system.tasks.actions.history')}
                    </Button>
                    {canUpdate && (
                      <>
                        <Button size="small" onClick={() => setEditing(task)}>
                          {t('system.tasks.actions.edit')}
                        </Button>
                        <Button
                          size="small"
                          startIcon={<PlayArrowIcon />}
                          onClick={() => setConfirmRun(task)}
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
        )}
      </Paper>
      {selected && <TaskRuns task={selected} />}
      {editing && (
        <TaskFormDialog
          task={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            setNotice(t('system.tasks.saved'));
            await queryClient.invalidateQueries({ queryKey: TASKS_KEY });
          }}
        />
      )}
      <Dialog open={confirmRun !== null} onClose={() => setConfirmRun(null)}>
        <DialogTitle>{t('system.tasks.confirm_run', { name: confirmRun?.name ?? '' })}</DialogTitle>
        <DialogActions>
          <Button onClick={() => setConfirmRun(null)}>{t('system.tasks.actions.cancel')}</Button>
          <Button
            variant="contained"
            onClick={() => {
              if (confirmRun) run.mutate(confirmRun);
              setConfirmRun(null);
            }}
          >
            {t('system.tasks.actions.run_now')}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
