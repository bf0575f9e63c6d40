import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

// `kits` (src/engine/testing/kits.ts) declares `items` as an inline has-many list of `kit_items`.
const kit = {
  id: '1',
  name: 'Starter kit',
  items: [
    { id: '11', kit_id: '1', name: 'Screwdriver', quantity: 1, created_at: '2025-01-01T00:00:00.000Z' },
    { id: '12', kit_id: '1', name: 'Hammer', quantity: 2, created_at: '2025-01-01T00:00:00.000Z' },
  ],
};

vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

/** The rows of the inline list (one list item per child). */
const rows = () =>
  within(screen.getByText('Items').closest('.ra-input-items') as HTMLElement).getAllByRole('listitem');

describe('inline has-many list in the generated form', () => {
  it('edit: loads the kit with include=items, shows each item and sends an added one with the others', async () => {
    const calls = fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/test/kits/1')
        return { body: { code: 200, data: kit } };
      if (call.method === 'PATCH') return { body: { code: 200, data: kit } };
      return { body: listEnvelope([]) };
    });
    await renderEngine({ path: '/settings/kits/1' });
    expect(await screen.findByDisplayValue('Screwdriver')).toBeTruthy();
    expect(screen.getByDisplayValue('Hammer')).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/v1/test/kits/1')?.query.get('include')).toBe('items');
    expect(rows()).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    const added = within(rows()[2]!);
    await userEvent.type(added.getByRole('textbox', { name: /^Name/ }), 'Pliers');
    expect((added.getByRole('spinbutton', { name: /^Quantity/ }) as HTMLInputElement).value).toBe('1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Save successful');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      items: [
        { id: '11', name: 'Screwdriver', quantity: 1 },
        { id: '12', name: 'Hammer', quantity: 2 },
        { name: 'Pliers', quantity: 1 },
      ],
    });
  });

  it('edit: an unchanged list is not sent', async () => {
    const calls = fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/test/kits/1')
        return { body: { code: 200, data: kit } };
      if (call.method === 'PATCH') return { body: { code: 200, data: { ...kit, name: 'Pro kit' } } };
      return { body: listEnvelope([]) };
    });
    await renderEngine({ path: '/settings/kits/1' });
    const name = await screen.findByDisplayValue('Starter kit');
    await userEvent.clear(name);
    await userEvent.type(name, 'Pro kit');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Save successful');
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'Pro kit' });
  });

  it('create: a new row is checked with the child schema ("Cannot be empty") before anything is sent', async () => {
    const calls = fakeFetch((call) =>
      call.method === 'POST'
        ? { status: 201, body: { code: 200, data: { id: '2', name: 'Kit', items: [] } } }
        : { body: listEnvelope([]) },
    );
    await renderEngine({ path: '/settings/kits/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Travel kit');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(rows()[0]!).findByText('Cannot be empty')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(within(rows()[0]!).getByRole('textbox', { name: /^Name/ }), 'Torch');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Save successful');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Travel kit',
      items: [{ name: 'Torch', quantity: 1 }],
    });
  });

  it("puts the server's 422 for a row field under that row's input", async () => {
    fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/test/kits/1')
        return { body: { code: 200, data: kit } };
      if (call.method === 'PATCH')
        return {
          status: 422,
          body: {
            code: 422,
            message: 'Invalid',
            errors: { 'items.1.name': ['This value is already taken'] },
          },
        };
      return { body: listEnvelope([]) };
    });
    await renderEngine({ path: '/settings/kits/1' });
    const hammer = await screen.findByDisplayValue('Hammer');
    await userEvent.type(hammer, ' XL');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(rows()[1]!).findByText('This value is already taken')).toBeTruthy();
    expect(within(rows()[0]!).queryByText('This value is already taken')).toBeNull();
  });

  it('show: lists the children with their fields', async () => {
    fakeFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/v1/test/kits/1')
        return { body: { code: 200, data: kit } };
      return { body: listEnvelope([]) };
    });
    await renderEngine({ path: '/settings/kits/1/show' });
    const table = (await screen.findByText('Screwdriver')).closest('table') as HTMLElement;
    expect(within(table).getByRole('columnheader', { name: 'Quantity' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: 'Hammer' })).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(3);
  });
});
