import { queueName } from '../systemNames.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION, actionPermission } from '../../../../schemas/permissions.ts';
import { httpClient } from '../../../providers/httpClient.ts';
import { useCan } from '../../../providers/useCan.ts';
import type { WireJob } from './JobsTable.tsx';

export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'cancelled', 'failed'] as const;
const JOBS_KEY = ['system', 'jobs'] as const;
/** Queues and jobs change by themselves (workers): both lists refresh this often while shown. */
const REFRESH_MS = 3000;

export interface WireQueue {
  name: string;
  /** The scheduled task's name for a task's queue, else null. */
  task_name: string | null;
  counts: Record<(typeof JOB_STATES)[number] | 'total', number>;
}

export type JobAction = 'retry' | 'cancel';

/**
 * Everything the job queues page loads and does (the controller; JobsPage only renders): the queues with
 * their counts, the chosen queue's jobs filtered by state, retry or cancel after confirming, and the
 * queue's name (a task's queue is named after the task, the engine's own by the catalogue).
 *
 * @example
 * const page = useJobsPage(); page.queues.map((q) => page.queueLabel(q));
 */
export function useJobsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canUpdate = useCan(actionPermission(PERMISSION.systemJobs, 'update'));
  const [queue, setQueue] = useState<string | null>(null);
  const [state, setState] = useState('');
  const [confirm, setConfirm] = useState<{ job: WireJob; action: JobAction } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const queues = useQuery({
    queryKey: JOBS_KEY,
    queryFn: () => httpClient<WireQueue[]>('v1/system/jobs'),
    refetchInterval: REFRESH_MS,
  });
  const jobs = useQuery({
    queryKey: [...JOBS_KEY, queue, state],
    queryFn: () =>
      httpClient<{ data: WireJob[] }>(`v1/system/jobs/${encodeURIComponent(queue!)}`, {
        query: { state: state || undefined, size: 50 },
      }),
    enabled: queue !== null,
    refetchInterval: REFRESH_MS,
  });
  const act = useMutation({
    mutationFn: ({ job, action }: { job: WireJob; action: JobAction }) =>
      httpClient<WireJob>(`v1/system/jobs/${encodeURIComponent(job.queue)}/${job.id}/${action}`, {
        method: 'POST',
      }),
    onSuccess: async (_job, { action }) => {
      setNotice(t(action === 'retry' ? 'system.jobs.retried' : 'system.jobs.cancelled'));
      await queryClient.invalidateQueries({ queryKey: JOBS_KEY });
    },
  });
  const list = queues.data ?? [];
  const selected = list.find((q) => q.name === queue);
  const queueLabel = (q: WireQueue) => queueName(t, q.name, q.task_name);

  return {
    queues: list,
    isPending: queues.isPending,
    queuesError: queues.error?.message ?? null,
    actionError: act.error?.message ?? null,
    canUpdate,
    queue,
    /** The chosen queue's name as shown (its id until the queues have loaded). */
    queueTitle: selected ? queueLabel(selected) : (queue ?? ''),
    queueLabel,
    state,
    jobs: jobs.data?.data,
    isJobsPending: jobs.isPending,
    jobsError: jobs.error?.message ?? null,
    confirm,
    notice,
    chooseQueue: setQueue,
    chooseState: setState,
    refresh: () => void queryClient.invalidateQueries({ queryKey: JOBS_KEY }),
    ask: (job: WireJob, action: JobAction) => setConfirm({ job, action }),
    cancelConfirm: () => setConfirm(null),
    confirmAction: () => {
      if (confirm) act.mutate(confirm);
      setConfirm(null);
    },
    dismissNotice: () => setNotice(null),
  };
}
