import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpSystemPage, fakeApi, renderSystemPage } from '../testing/renderSystemPage.tsx';
import { TasksPage } from './TasksPage.tsx';
import { i18n, loadAdminMessages } from '../../../i18n/i18n.ts';

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

  it('names a built-in task in the interface language and shows a run result as labelled figures', async () => {
    const user = userEvent.setup();
    const builtIn = { ...TASK, name: 'Purge expired tokens and codes', handler: 'auth.purge' };
    fakeApi({
      'GET /api/v1/system/tasks/handlers': () => HANDLERS,
      'GET /api/v1/system/tasks/7/runs': () =>
        page([
          {
            id: '1',
            task_id: '7',
            trigger: 'manual',
            status: 'succeeded',
            started_at: '2026-11-25T19:00:00.000Z',
            finished_at: '2026-11-25T19:00:01.000Z',
            duration_ms: 1000,
            result: { tokens: 1234, codes: 0, orphans: { removed: 2, bytes: 2048 } },
            error: null,
          },
        ]),
      'GET /api/v1/system/tasks': () => page([builtIn]),
    });
    await renderSystemPage(<TasksPage />);
    const table = await screen.findByRole('table', { name: 'Scheduled tasks' });
    await user.click(within(table).getByRole('button', { name: 'History' }));
    const runs = await screen.findByRole('table', { name: 'Run history' });
    const figures = await within(runs).findByText('Sign-in tokens removed');
    expect(figures.nextElementSibling?.textContent).toBe('1,234');
    expect(within(runs).getByText('Orphaned files · Size').nextElementSibling?.textContent).toBe('2 KB');
    expect(runs.textContent).not.toMatch(/[{}"]/);
    await i18n.changeLanguage('zh-CN');
    try {
      await loadAdminMessages(['system']);
      expect(await screen.findByRole('cell', { name: '清理过期的令牌和验证码' })).toBeTruthy();
      expect(await screen.findByText('已删除登录令牌')).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
