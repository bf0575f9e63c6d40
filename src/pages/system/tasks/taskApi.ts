import type { Paged } from '../../../../schemas/pagination.ts';
import type { TaskDetail, TaskRecord, TaskRun } from '../../../../schemas/tasks.ts';
import { formatDateTime } from '../../../lib/localeDate.ts';
import { httpClient } from '../../../providers/httpClient.ts';

/** A task as `v1/system/tasks` returns it (with `next_runs` when read alone). */
export type WireTask = TaskRecord & Partial<Pick<TaskDetail, 'next_runs'>>;

export interface WireHandler {
  name: string;
  description: string;
  label: string;
  params_schema: { properties?: Record<string, { default?: unknown }> };
}

export type WireRun = TaskRun;
export type Page<T> = Paged<T>;

export const TASKS_KEY = ['system', 'tasks'] as const;
export const TASKS_PATH = 'v1/system/tasks';
/** The handlers list is translated by the server: one cache entry per language. */
export const handlersKey = (language: string) => [...TASKS_KEY, 'handlers', language] as const;

export type TaskBody = Pick<WireTask, 'name' | 'handler' | 'params' | 'cron' | 'timezone' | 'state'>;

export const taskApi = {
  list: () => httpClient<Page<WireTask>>(TASKS_PATH, { query: { size: 100 } }),
  handlers: () => httpClient<WireHandler[]>(`${TASKS_PATH}/handlers`),
  runs: (id: string) => httpClient<Page<WireRun>>(`${TASKS_PATH}/${id}/runs`, { query: { size: 20 } }),
  preview: (cron: string, timezone: string) =>
    httpClient<{ next_runs: string[] }>(`${TASKS_PATH}/preview`, {
      method: 'POST',
      body: { cron, timezone },
    }),
  save: (id: string | null, body: TaskBody) =>
    httpClient<WireTask>(id ? `${TASKS_PATH}/${id}` : TASKS_PATH, { method: id ? 'PATCH' : 'POST', body }),
  remove: (id: string) => httpClient<null>(`${TASKS_PATH}/${id}`, { method: 'DELETE' }),
  run: (id: string) => httpClient<{ job_id: string | null }>(`${TASKS_PATH}/${id}/run`, { method: 'POST' }),
};

/** Default parameters of a handler, from its JSON Schema (`{}` when it takes none). */
export function defaultParams(handler: WireHandler | undefined): Record<string, unknown> {
  const props = handler?.params_schema.properties ?? {};
  return Object.fromEntries(
    Object.entries(props)
      .filter(([, p]) => p.default !== undefined)
      .map(([k, p]) => [k, p.default]),
  );
}

/** A run's time in the interface language's format (zh-CN `2025/07/04 09:05:07`). */
export function formatTime(iso: string | null, locale: string): string {
  return formatDateTime(iso, locale);
}
