import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpSystemPage, fakeApi, renderSystemPage } from '../testing/renderSystemPage.tsx';
import { TasksPage } from './TasksPage.tsx';

const TASK = {
  id: '7',
  name: 'Nightly trim',
  handler: 'activities.trim',
  params: {},
  cron: '0 3 * * *',
  timezone: 'Asia/Shanghai',
  state: true,
  last_run_at: null,
  next_run_at: '2026-11-25T19:00:00.000Z',
};
const HANDLERS = [
  { name: 'activities.trim', description: 'x', label: 'Trim the activity log', params_schema: {} },
];
const page = <T,>(data: T[]) => ({ data, meta: { pagination: { total: data.length } } });

describe('TasksPage', { timeout: 30_000 }, () => {
  afterEach(cleanUpSystemPage);

  it('lists tasks with the handler named, not its id', async () => {
    fakeApi({
      'GET /api/v1/system/tasks/handlers': () => HANDLERS,
      'GET /api/v1/system/tasks': () => page([TASK]),
    });
    await renderSystemPage(<TasksPage />);
    const table = await screen.findByRole('table', { name: 'Scheduled tasks' });
    const row = within(table).getByRole('row', { name: /Nightly trim/ });
    expect(await within(row).findByRole('cell', { name: 'Trim the activity log' })).toBeTruthy();
    expect(within(row).queryByText('activities.trim')).toBeNull();
    expect(within(row).getByText('0 3 * * *')).toBeTruthy();
    expect(within(row).getByText('Enabled')).toBeTruthy();
  });

  it('says so when there are no tasks, and while they load', async () => {
    fakeApi({
      'GET /api/v1/system/tasks/handlers': () => HANDLERS,
      'GET /api/v1/system/tasks': () => page([]),
    });
    await renderSystemPage(<TasksPage />);
    expect(screen.getByRole('status').textContent).toMatch(/Loading/);
    expect(await screen.findByText('No scheduled tasks yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('runs a task now after confirming, then shows its history', async () => {
    const user = userEvent.setup();
    const calls = fakeApi({
      'GET /api/v1/system/tasks/handlers': () => HANDLERS,
      'GET /api/v1/system/tasks/7/runs': () => page([]),
      'POST /api/v1/system/tasks/7/run': () => ({ job_id: 'j1' }),
      'GET /api/v1/system/tasks': () => page([TASK]),
    });
    await renderSystemPage(<TasksPage />);
    await user.click(await screen.findByRole('button', { name: 'Run now' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Nightly trim/)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Run now' }));
    await screen.findByText('The task was queued; its run appears in the history.');
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.url)).toEqual([
      '/api/v1/system/tasks/7/run',
    ]);
    expect(await screen.findByRole('heading', { name: 'Run history: Nightly trim' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
