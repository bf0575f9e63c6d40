import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpSystemPage, fakeApi, renderSystemPage } from '../testing/renderSystemPage.tsx';
import { LogsPage } from './LogsPage.tsx';

const SELF = { id: 'a1b2c3d4', host: 'web-1', pid: 42, is_self: true };
const line = (msg: string, level = 'info') => ({
  time: '2026-11-24T08:00:00.000Z',
  level,
  msg,
  file: 'app-2026-11-24.log',
  record: { msg },
});
const answer = (data: unknown[], total = data.length) => ({
  data,
  meta: {
    pagination: { total },
    node: { ...SELF, source: 'files' },
    nodes: [{ ...SELF, status: 'up' }],
  },
});

describe('LogsPage', { timeout: 30_000 }, () => {
  afterEach(cleanUpSystemPage);

  it("shows this server's lines with their count, and which server they come from", async () => {
    fakeApi({ 'GET /api/v1/system/logs': () => answer([line('server ready'), line('disk low', 'warn')], 2) });
    await renderSystemPage(<LogsPage />);
    const table = await screen.findByRole('table');
    await within(table).findByRole('cell', { name: 'server ready' });
    expect(within(table).getByRole('cell', { name: 'warn' })).toBeTruthy();
    expect(screen.getByText('1-2 of 2')).toBeTruthy();
    expect(screen.getByText('Showing web-1 (pid 42, a1b2c3d4, this server): its log files.')).toBeTruthy();
  });

  it('asks the server again with a level filter, from the first page, and says when nothing matches', async () => {
    const user = userEvent.setup();
    const calls = fakeApi({
      'GET /api/v1/system/logs': (call) =>
        new URL(call.url, 'http://x').searchParams.get('level') === 'error'
          ? answer([])
          : answer([line('hello')]),
    });
    await renderSystemPage(<LogsPage />);
    await screen.findByRole('cell', { name: 'hello' });
    await user.click(screen.getByRole('combobox', { name: 'Lowest level' }));
    await user.click(await screen.findByRole('option', { name: 'error' }));
    expect(await screen.findByRole('cell', { name: 'No log lines match.' })).toBeTruthy();
    const last = new URL(calls.at(-1)!.url, 'http://x').searchParams;
    expect(last.get('level')).toBe('error');
    expect(last.get('page')).toBe('1');
  });

  it('reads and takes times in the interface language, not the browser', async () => {
    const user = userEvent.setup();
    const calls = fakeApi({ 'GET /api/v1/system/logs': () => answer([line('hello')]) });
    await renderSystemPage(<LogsPage />);
    const when = new Date('2026-11-24T08:00:00.000Z');
    const pad = (n: number) => String(n).padStart(2, '0');
    const shown = `${pad(when.getMonth() + 1)}/${pad(when.getDate())}/${when.getFullYear()}, ${pad(when.getHours())}:${pad(when.getMinutes())}:${pad(when.getSeconds())}`;
    expect(await screen.findByRole('cell', { name: shown })).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'From' }), '11/24/2026, 09:30');
    await waitFor(() =>
      expect(new URL(calls.at(-1)!.url, 'http://x').searchParams.get('from')).toBe(
        new Date(2026, 10, 24, 9, 30).toISOString(),
      ),
    );
  });

  it('says so when the logs cannot be loaded', async () => {
    fakeApi({
      'GET /api/v1/system/logs': () => ({ status: 500, body: { code: 500, message: 'x', data: null } }),
    });
    await renderSystemPage(<LogsPage />);
    await waitFor(() => expect(screen.getByText('The logs could not be loaded.')).toBeTruthy());
  });
});
