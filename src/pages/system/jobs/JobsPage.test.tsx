import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpSystemPage, fakeApi, renderSystemPage } from '../testing/renderSystemPage.tsx';
import { JobsPage } from './JobsPage.tsx';

const counts = (failed: number) => ({
  created: 0,
  retry: 0,
  active: 0,
  completed: 2,
  cancelled: 0,
  failed,
  total: 2 + failed,
});
const QUEUES = [{ name: 'task-7', task_name: 'Nightly trim', counts: counts(1) }];
const FAILED = {
  id: '0d1c2b3a-0000-4000-8000-000000000001',
  queue: 'task-7',
  state: 'failed',
  data: { task_id: '7' },
  progress: null,
  error: 'disk full',
  retry_count: 2,
  retry_limit: 2,
  created_at: '2026-11-24T08:00:00.000Z',
  completed_at: null,
};

describe('JobsPage', { timeout: 30_000 }, () => {
  afterEach(cleanUpSystemPage);

  it("names a task's queue after the task and counts its jobs by state", async () => {
    fakeApi({ 'GET /api/v1/system/jobs': () => QUEUES });
    await renderSystemPage(<JobsPage />);
    const table = await screen.findByRole('table', { name: 'Queues' });
    const row = within(table).getByRole('row', { name: /Nightly trim/ });
    expect(within(row).queryByText('task-7')).toBeNull();
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Nightly trim', '0', '0', '0', '2', '0', '1', '3']);
    expect(screen.getByText('Choose a queue to see its jobs.')).toBeTruthy();
  });

  it('shows a queue’s jobs and retries a failed one after confirming', async () => {
    const user = userEvent.setup();
    const calls = fakeApi({
      'GET /api/v1/system/jobs/task-7': () => ({ data: [FAILED] }),
      [`POST /api/v1/system/jobs/task-7/${FAILED.id}/retry`]: () => ({ ...FAILED, state: 'retry' }),
      'GET /api/v1/system/jobs': () => QUEUES,
    });
    await renderSystemPage(<JobsPage />);
    await user.click(await screen.findByRole('button', { name: 'Nightly trim' }));
    expect(await screen.findByRole('heading', { name: 'Nightly trim' })).toBeTruthy();
    const jobs = await screen.findByRole('table', { name: 'Job queues' });
    expect(within(jobs).getByText('disk full')).toBeTruthy();
    await user.click(within(jobs).getByRole('button', { name: 'Retry' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry this failed job?' });
    await user.click(within(dialog).getByRole('button', { name: 'Retry' }));
    await screen.findByText('The job was queued again.');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      `/api/v1/system/jobs/task-7/${FAILED.id}/retry`,
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says a queue has no jobs', async () => {
    const user = userEvent.setup();
    fakeApi({
      'GET /api/v1/system/jobs/task-7': () => ({ data: [] }),
      'GET /api/v1/system/jobs': () => QUEUES,
    });
    await renderSystemPage(<JobsPage />);
    await user.click(await screen.findByRole('button', { name: 'Nightly trim' }));
    expect(await screen.findByText('No jobs in this queue.')).toBeTruthy();
  });

  it('says there are no queues', async () => {
    fakeApi({ 'GET /api/v1/system/jobs': () => [] });
    await renderSystemPage(<JobsPage />);
    expect(await screen.findByText('No queues yet.')).toBeTruthy();
    expect(screen.queryByText('Choose a queue to see its jobs.')).toBeNull();
  });
});
