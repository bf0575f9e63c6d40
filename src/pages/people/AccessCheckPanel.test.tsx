import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../../engine/testing/fakeFetch.ts';
import { renderEngine } from '../../engine/testing/renderEngine.tsx';
import { AccessCheckPanel } from './AccessCheckPanel.tsx';

vi.setConfig({ testTimeout: 30_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

// Mounted where a record page would be, so it has the app's contexts (i18n, profile, router).
const overrides = { contacts: { edit: () => <AccessCheckPanel userId="42" /> } };
const explanation = {
  can: { read: true, update: false, delete: false },
  because: ['Read: granted by East viewer (system.users.staff).', 'Record 7 lies within these scopes.'],
  fields: { name: 'write', phone: 'hidden', email: 'read' },
};

describe('the check access panel', () => {
  it('asks the server about the chosen page and record and shows what it answered', async () => {
    const calls = fakeFetch((call) =>
      call.path === '/api/v1/user/access/explain'
        ? call.query.get('id') === '404'
          ? { status: 404, body: { code: 404, message: 'Not found', data: null } }
          : { body: { code: 200, data: explanation } }
        : { body: listEnvelope([]) },
    );
    await renderEngine({ path: '/settings/contacts/1', overrides });
    const panel = await screen.findByRole('region', { name: 'Check access' });
    await userEvent.click(within(panel).getByRole('combobox', { name: 'Page' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Staff' }));
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Record ID' }), '7');
    await userEvent.click(within(panel).getByRole('button', { name: 'Check' }));

    expect(await within(panel).findByText('Can read')).toBeTruthy();
    expect(within(panel).getByText('Cannot update')).toBeTruthy();
    expect(within(panel).getByText('Cannot delete')).toBeTruthy();
    expect(within(panel).getByText('Record 7 lies within these scopes.')).toBeTruthy();
    const rows = within(within(panel).getByRole('table')).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'FieldAccess',
      'NameWritable',
      'PhoneHidden',
      'EmailRead-only',
    ]);
    const asked = calls.filter((c) => c.path === '/api/v1/user/access/explain');
    expect(Object.fromEntries(asked[0]!.query)).toEqual({ user_id: '42', resource: 'staff', id: '7' });

    await userEvent.clear(within(panel).getByRole('textbox', { name: 'Record ID' }));
    await userEvent.type(within(panel).getByRole('textbox', { name: 'Record ID' }), '404');
    await userEvent.click(within(panel).getByRole('button', { name: 'Check' }));
    expect(await within(panel).findByRole('alert')).toBeTruthy();
    expect(within(panel).queryByRole('table')).toBeNull();
  });
});
