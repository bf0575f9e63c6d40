import type { TFunction } from 'i18next';

/**
 * The tasks every installation starts with (server/migrations/0006_scheduled_tasks.sql), by the name that
 * migration gave them, each with its stable id in the catalogues (`system.tasks.builtin.<id>`). A task staff
 * have renamed keeps the name they gave it.
 */
const BUILT_IN_TASKS: Readonly<Record<string, string>> = {
  'Purge expired tokens and codes': 'auth_purge',
  'Trim the activity log': 'activities_trim',
  'Back up the database': 'database_backup',
  'Clean temp uploads': 'files_clean_temp',
};

/** The queues the server itself declares (`csv-export`...), named in `system.jobs.queue_names.<id>`. */
const TASK_QUEUE = /^task-(\d+)$/;

/**
 * A scheduled task's name as staff read it: a built-in task in the interface language, any other as typed.
 *
 * @example
 * taskName(t, 'Back up the database') // '备份数据库' in zh-CN
 */
export function taskName(t: TFunction, name: string): string {
  const id = BUILT_IN_TASKS[name];
  return id ? t(`system.tasks.builtin.${id}`, { defaultValue: name }) : name;
}

/**
 * A job queue's name as staff read it: a task's queue after its task (when the caller knows it), a server
 * queue from the catalogue, another task's queue as "Scheduled task #<id>", anything else as it is.
 *
 * @example
 * queueName(t, 'csv-export') // 'CSV 导出' in zh-CN
 */
export function queueName(t: TFunction, queue: string, task?: string | null): string {
  if (task) return taskName(t, task);
  const taskId = TASK_QUEUE.exec(queue)?.[1];
  if (taskId) return t('system.jobs.task_queue', { id: taskId });
  return t(`system.jobs.queue_names.${queue}`, { defaultValue: queue });
}

/** A job state (pg-boss's `created`, `active`... and `total`) in the interface language. */
export function jobStateName(t: TFunction, state: string): string {
  return t(`system.jobs.states.${state}`, { defaultValue: state });
}
