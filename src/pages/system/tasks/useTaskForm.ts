import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isHttpError } from '../../../providers/httpError.ts';
import { TASKS_KEY, defaultParams, handlersKey, taskApi, type WireTask } from './taskApi.ts';

/**
 * Everything the task dialog loads and does (the controller; TaskFormDialog only renders): the fields, the
 * registered handlers (choosing one fills in its default parameters), the next five run times of the cron
 * (asked of the server 300 ms after the last keystroke), saving, and the server's refusals by field.
 *
 * @example
 * const form = useTaskForm(null, onSaved); form.chooseHandler('auth.purge'); form.submit();
 */
export function useTaskForm(task: WireTask | null, onSaved: () => void | Promise<void>) {
  const { i18n } = useTranslation();
  const handlers = useQuery({ queryKey: handlersKey(i18n.language), queryFn: taskApi.handlers });
  const [name, setName] = useState(task?.name ?? '');
  const [handler, setHandler] = useState(task?.handler ?? '');
  const [params, setParams] = useState(JSON.stringify(task?.params ?? {}, null, 2));
  const [cron, setCron] = useState(task?.cron ?? '0 3 * * *');
  const [timezone, setTimezone] = useState(task?.timezone ?? 'UTC');
  const [state, setState] = useState(task?.state ?? true);
  const [jsonError, setJsonError] = useState(false);
  const [debounced, setDebounced] = useState({ cron, timezone });
  useEffect(() => {
    const id = setTimeout(() => setDebounced({ cron, timezone }), 300);
    return () => clearTimeout(id);
  }, [cron, timezone]);
  const preview = useQuery({
    queryKey: [...TASKS_KEY, 'preview', debounced.cron, debounced.timezone],
    queryFn: () => taskApi.preview(debounced.cron, debounced.timezone),
    retry: false,
  });
  const save = useMutation({
    mutationFn: () =>
      taskApi.save(task?.id ?? null, {
        name,
        handler,
        params: JSON.parse(params) as Record<string, unknown>,
        cron,
        timezone,
        state,
      }),
    onSuccess: () => onSaved(),
  });
  const errors = save.error && isHttpError(save.error) ? save.error.errors : {};

  return {
    name,
    handler,
    params,
    cron,
    timezone,
    state,
    setName,
    setParams,
    setCron,
    setTimezone,
    setState,
    handlers: handlers.data,
    /** The chosen handler's entry (its label is the field's help). */
    selected: handlers.data?.find((h) => h.name === handler),
    /** The next run times (ISO), or undefined while the cron or zone is invalid. */
    nextRuns: preview.data?.next_runs,
    /** The zone the run times are shown in (the one they were computed for). */
    previewZone: debounced.timezone,
    jsonError,
    /** A refusal without field messages (shown above the fields). */
    formError: save.error && !Object.keys(errors).length ? save.error.message : null,
    fieldError: (key: string) => errors[key]?.join(' '),
    /** The server's messages about the parameters, each with its path inside them. */
    paramErrors: Object.entries(errors)
      .filter(([k]) => k.startsWith('params'))
      .map(([k, v]) => `${k.replace(/^params\.?/, '')}: ${v.join(' ')}`),
    isSaving: save.isPending,
    chooseHandler: (next: string) => {
      setHandler(next);
      setParams(JSON.stringify(defaultParams(handlers.data?.find((h) => h.name === next)), null, 2));
    },
    submit: () => {
      try {
        JSON.parse(params);
        setJsonError(false);
      } catch {
        setJsonError(true);
        return;
      }
      save.mutate();
    },
  };
}
