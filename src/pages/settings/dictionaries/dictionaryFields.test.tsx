import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope, type FakeCall } from '../../../engine/testing/fakeFetch.ts';
import { renderEngine } from '../../../engine/testing/renderEngine.tsx';

// `category: dictionary('contact_category')` on the engine's test resource: the select offers the entries
// the options endpoint returns (enabled ones only, server side), and a shown value reads as its label.
vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const carol = { id: '1', name: 'Carol', email: 'carol@example.com', category: 'vip', role_ids: [] };

function server(calls: FakeCall[] = []) {
  return fakeFetch((call) => {
    calls.push(call);
    if (call.path === '/api/v1/dictionary/options/contact_category')
      return {
        body: {
          code: 200,
          data: {
            slug: 'contact_category',
            data: [
              { label: 'VIP customer', value: 'vip' },
              { label: 'Partner', value: 'partner' },
            ],
          },
        },
      };
    if (call.path === '/api/v1/test/contacts/1') return { body: { code: 200, data: carol } };
    return { body: listEnvelope([carol]) };
  });
}

describe('dictionary-backed fields', () => {
  it('edits the value with a select of the dictionary entries', async () => {
    const calls = server();
    await renderEngine({ path: '/settings/contacts/1' });
    const select = await screen.findByRole('combobox', { name: /^Category|^category/i });
    await screen.findByText('VIP customer');
    await userEvent.click(select);
    const options = within(await screen.findByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(expect.arrayContaining(['VIP customer', 'Partner']));
    expect(calls.some((c) => c.path === '/api/v1/dictionary/options/contact_category')).toBe(true);
  });

  it('shows the label of a stored value', async () => {
    server();
    await renderEngine({ path: '/settings/contacts/1/show' });
    expect(await screen.findByText('VIP customer')).toBeTruthy();
    expect(screen.queryByText('vip')).toBeNull();
  });
});
