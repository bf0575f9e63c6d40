import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { disconnect } from '../../events/eventStream.ts';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import type { FakeCall } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

const alice = { id: '1', name: 'Alice', email: 'alice@example.com', state: true, role_ids: [] };
const JOB = '5b0c8f6e-0000-4000-8000-000000000001';
const BASE = '/api/v1/test/contacts';

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  disconnect();
  vi.unstubAllGlobals();
});

/** The list, a 202 export, the job's status (active once, then `final`), its download; events as given. */
function api(
  final: Record<string, unknown>,
  events: (call: FakeCall) => Response,
  onFirstStatus: () => void = () => {},
) {
  let statusCalls = 0;
  return fakeFetch((call) => {
    if (call.path === '/api/v1/events') return events(call);
    if (call.path === `${BASE}/export`)
      return {
        status: 202,
        body: { code: 200, data: { job_id: JOB, queue: 'csv-export', state: 'queued' } },
      };
    if (call.path === `${BASE}/export/${JOB}`) {
      statusCalls += 1;
      if (statusCalls === 1) onFirstStatus();
      const data =
        statusCalls === 1
          ? { id: JOB, state: 'active', progress: 10, output: { done: 1, total: 10 }, error: null }
          : { id: JOB, progress: 100, ...final };
      return { body: { code: 200, data } };
    }
    if (call.path === `${BASE}/export/${JOB}/download`)
      return new Response('\uFEFFName\nAlice\n', {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': 'attachment; filename="contacts.csv"; filename*=UTF-8\'\'contacts.csv',
        },
      });
    return { body: listEnvelope([alice]) };
  });
}

describe('ExportButton with a large export (job)', () => {
  it('shows live progress from job events, then offers the file for download', async () => {
    // The list page holds the stream open already; the job's event arrives while the job runs.
    let push: (text: string) => void = () => {};
    const stream = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            push = (text) => controller.enqueue(new TextEncoder().encode(text));
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const progress = { queue: 'csv-export', id: JOB, state: 'active', progress: 40 };
    const calls = api(
      { state: 'completed', output: { name: 'contacts.csv', rows: 10, size: 99 }, error: null },
      stream,
      () => push(`event: job\ndata: ${JSON.stringify(progress)}\n\n`),
    );
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Alice');
    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'CSV (.csv)' }));

    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Preparing the file… 40%')).toBeTruthy();
    expect(click).not.toHaveBeenCalled();
    expect(await within(dialog).findByText('The file is ready: 10 rows', {}, { timeout: 6000 })).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Download' }));
    expect(await screen.findByText('Download successful')).toBeTruthy();
    expect(click).toHaveBeenCalledOnce();
    expect(calls.some((c) => c.path === `${BASE}/export/${JOB}/download`)).toBe(true);
    expect(calls.find((c) => c.path === '/api/v1/events')?.headers.get('authorization')).toBe(
      'Bearer test-token',
    );
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('falls back to polling the job without an event stream, and shows its error', async () => {
    api({ state: 'failed', output: null, error: 'disk full' }, () => new Response(null, { status: 404 }));
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Alice');
    await userEvent.click(await screen.findByRole('button', { name: 'Export' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'CSV (.csv)' }));
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Preparing the file… 10%')).toBeTruthy();
    expect(
      await within(dialog).findByText('The export failed: disk full', {}, { timeout: 6000 }),
    ).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Download' })).toBeNull();
  });
});
