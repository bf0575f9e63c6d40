import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogs } from '../../../locales/index.ts';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

/**
 * Forms for people (issue 13, item 3): 0/1 flags are switches, dates follow the app's language, inline child
 * inputs are labelled in it, required fields carry the asterisk.
 */
// The first test renders the whole engine once; generous on a loaded machine.
vi.setConfig({ testTimeout: 60_000 });

const zhResources = catalogs['zh-CN'].resources as Record<string, unknown>;
const saved = zhResources.kit_items;
beforeAll(() => {
  // As a developer would write them in locales/zh-CN/resources.json.
  zhResources.kit_items = { fields: { name: '物品名称', quantity: '数量' } };
});
afterAll(() => {
  zhResources.kit_items = saved;
});
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

const alice = {
  id: '1',
  name: 'Alice',
  email: 'alice@example.com',
  gender: 'female',
  state: true,
  role_ids: [],
  birthday: '2025-07-04',
  is_vip: 1,
};

describe('forms for people', () => {
  it('edits a 0/1 flag with a switch and sends 1/0', async () => {
    const calls = fakeFetch((call) =>
      call.method === 'POST'
        ? { status: 201, body: { code: 200, data: { ...alice, id: '9' } } }
        : { body: listEnvelope([]) },
    );
    await renderEngine({ path: '/settings/contacts/create' });
    const vip = await screen.findByRole('switch', { name: /^Is vip/ });
    expect(screen.queryByRole('spinbutton', { name: /^Is vip/ })).toBeNull();
    expect((vip as HTMLInputElement).checked).toBe(false);
    await userEvent.click(vip);
    await userEvent.type(screen.getByRole('textbox', { name: /^Name/ }), 'Vera');
    await userEvent.type(screen.getByRole('textbox', { name: /^Email/ }), 'vera@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ is_vip: 1 });
  });

  it('marks required fields with an asterisk and leaves optional ones unmarked', async () => {
    fakeFetch(() => ({ body: listEnvelope([]) }));
    await renderEngine({ path: '/settings/contacts/create' });
    // The asterisk is in the visible label (hidden from the accessible name, which stays "Name").
    const labelOf = (input: HTMLElement) => document.querySelector(`label[for="${input.id}"]`)?.textContent;
    expect(labelOf(await screen.findByRole('textbox', { name: 'Name' }))).toMatch(/^Name\s\*$/);
    expect(labelOf(screen.getByRole('textbox', { name: 'Email' }))).toMatch(/^Email\s\*$/);
    expect(labelOf(screen.getByRole('textbox', { name: 'Phone' }))).toBe('Phone');
  });

  it('shows dates in the format of the language (zh-CN 2025/07/04)', async () => {
    fakeFetch((call) =>
      call.path === '/api/v1/test/contacts/1'
        ? { body: { code: 200, data: alice } }
        : { body: listEnvelope([]) },
    );
    await renderEngine({ path: '/settings/contacts/1/show', locale: 'zh-CN' });
    expect(await screen.findByText('2025/07/04')).toBeTruthy();
    expect(screen.queryByText('7/4/2025')).toBeNull();
  });

  it('labels the inputs of an inline child row in the language of the app', async () => {
    fakeFetch((call) =>
      call.path === '/api/v1/test/kits/1'
        ? {
            body: {
              code: 200,
              data: { id: '1', name: 'Kit', items: [{ id: '11', kit_id: '1', name: 'Hammer', quantity: 2 }] },
            },
          }
        : { body: listEnvelope([]) },
    );
    await renderEngine({ path: '/settings/kits/1', locale: 'zh-CN' });
    const hammer = await screen.findByDisplayValue('Hammer');
    const row = within(hammer.closest('li') as HTMLElement);
    expect(row.getByRole('textbox', { name: /^物品名称/ })).toBe(hammer);
    expect(row.getByRole('spinbutton', { name: /^数量/ })).toBeTruthy();
  });
});
