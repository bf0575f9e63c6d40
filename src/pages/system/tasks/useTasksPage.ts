import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION, actionPermission } from '../../../../schemas/permissions.ts';
import { useCan } from '../../../providers/useCan.ts';
import { TASKS_KEY, handlersKey, taskApi, type WireTask } from './taskApi.ts';

/**
 * Everything the scheduled tasks page loads and does (the controller; TasksPage only renders): the task
 * list, the handlers' names for the handler column, the create/edit dialog, run now after confirming, and
 * which task's history is shown.
 *
 * @example
 * const page = useTasksPage(); page.tasks.map((task) => page.handlerLabel(task.handler));
 */
export function useTasksPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const canCreate = useCan(actionPermission(PERMISSION.systemTasks, 'create'));
  const canUpdate = useCan(actionPermission(PERMISSION.systemTasks, 'update'));
  const [editing, setEditing] = useState<WireTask | 'new' | null>(null);
  const [selected, setSelected] = useState<WireTask | null>(null);
  const [confirmRun, setConfirmRun] = useState<WireTask | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useQuery({ queryKey: TASKS_KEY, queryFn: taskApi.list });
  // The handlers' labels come translated by the server, so they are cached per language.
  const handlers = useQuery({ queryKey: handlersKey(i18n.language), queryFn: taskApi.handlers });
  const run = useMutation({
    mutationFn: (task: WireTask) => taskApi.run(task.id),
    onSuccess: async (_res, task) => {
      setNotice(t('system.tasks.run_started'));
      setSelected(task);
      await queryClient.invalidateQueries({ queryKey: [...TASKS_KEY, 'runs', task.id] });
    },
  });

  return {
    tasks: list.data?.data ?? [],
    isPending: list.isPending,
    listError: list.error?.message ?? null,
    runError: run.error?.message ?? null,
    canCreate,
    canUpdate,
    editing,
    selected,
    confirmRun,
    notice,
    /** The handler's name in the current language; its id until the handlers have loaded. */
    handlerLabel: (name: string) => handlers.data?.find((h) => h.name === name)?.label ?? name,
    startCreate: () => setEditing('new'),
    startEdit: (task: WireTask) => setEditing(task),
    closeEditor: () => setEditing(null),
    onSaved: async () => {
      setEditing(null);
      setNotice(t('system.tasks.saved'));
      await queryClient.invalidateQueries({ queryKey: TASKS_KEY });
    },
    showHistory: (task: WireTask) => setSelected(task),
    askRun: (task: WireTask) => setConfirmRun(task),
    cancelRun: () => setConfirmRun(null),
    confirmRunNow: () => {
      if (confirmRun) run.mutate(confirmRun);
      setConfirmRun(null);
    },
    dismissNotice: () => setNotice(null),
  };
}
