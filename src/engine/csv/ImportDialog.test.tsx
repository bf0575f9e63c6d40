import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.unstubAllGlobals());

describe('ImportDialog', () => {
  it("offers Undo of the import in its success toast (the answer's meta.operation_id)", async () => {
    const calls = fakeFetch((call) => {
      if (call.path === '/api/v1/test/contacts/import') {
        return call.query.get('dry_run')
          ? { body: { code: 200, data: { total: 2, valid: 2, errors: [] } } }
          : { body: { code: 200, data: { created: 2, updated: 0 }, meta: { operation_id: 'op-9' } } };
      }
      if (call.path === '/api/v1/operations/op-9/undo')
        return { body: { code: 200, data: { reverted: ['1', '2'], skipped: [] } } };
      if (call.path === '/api/v1/test/contacts' && call.method === 'GET')
        return { body: listEnvelope([{ id: '1', name: 'Alice', email: 'a@example.com', role_ids: [] }]) };
      return { body: listEnvelope([]) };
    });
    await renderEngine({ path: '/settings/contacts' });
    await screen.findByText('Alice');
    await userEvent.click(await screen.findByRole('button', { name: 'Import' }));
    const dialog = await screen.findByRole('dialog', { name: /^Import / });
    const csv = new File(['Name\nAlice\nBob\n'], 'contacts.csv', { type: 'text/csv' });
    await userEvent.upload(within(dialog).getByLabelText('Choose a CSV file'), csv);
    await within(dialog).findByText('2 of 2 rows are valid');
    const confirm = within(dialog)
      .getAllByRole('button')
      .find((b) => b.textContent === 'Import') as HTMLElement;
    await userEvent.click(confirm);
    const toast = (await screen.findByText(/^Import successful: 2 created/)).closest(
      '[role="status"]',
    ) as HTMLElement;
    await userEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/v1/operations/op-9/undo')).toBe(true));
    expect(await screen.findByText('Undone: 2 put back, 0 left as they are')).toBeTruthy();
  });
});
