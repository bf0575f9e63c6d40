import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import * as z from 'zod';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineAction, defineResource, field } from '../../../resources/define.ts';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import type { FakeCall } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

/**
 * Row actions on a generated list (issue 35 item 7): a button in each row's actions cell (a phone's card),
 * the `bulk: true` ones in the bulk bar, only for a caller holding `<permission>.<key>`.
 */
vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const parcels = defineResource({
  name: 'parcels',
  endpoint: 'v1/test/parcels',
  permission: 'test.parcels',
  recordRepresentation: 'name',
  schema: z.object({
    name: field(z.string().min(1), { list: true, search: 'like' }),
    stock: field(z.int().min(0), { list: true }),
  }),
  actions: {
    // Plain strings as labels: the test catalogue has no parcels, and a missing key shows as itself.
    ship: defineAction({
      label: 'Ship',
      confirm: 'Ship it?',
      input: z.object({ quantity: z.int().min(1) }),
      handler: () => ({}),
    }),
    retire: defineAction({ label: 'Retire', confirm: 'Retire them?', bulk: true, handler: () => ({}) }),
  },
});

const rows = [
  { id: '1', name: 'Lamp', stock: 5, version: 3 },
  { id: '2', name: 'Desk', stock: 1, version: 7 },
];

function api(handler?: (call: FakeCall) => unknown) {
  return fakeFetch((call) => {
    const custom = handler?.(call);
    if (custom) return custom as { body: unknown };
    if (call.path === '/api/v1/test/parcels' && call.method === 'GET') return { body: listEnvelope(rows) };
    return { body: listEnvelope([]) };
  });
}

const posts = (calls: FakeCall[]) =>
  calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.query.get('ids'), c.body]);

const stubPhone = () =>
  vi.stubGlobal('matchMedia', (media: string) => ({
    media,
    matches: /max-width:\s*599\.95px/.test(media),
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  }));

describe('row actions on the list', () => {
  it("run a row's action from its form, with its version, and stay on the list", async () => {
    const calls = api((call) =>
      call.method === 'POST' ? { body: { code: 200, data: { ...rows[0], version: 4 } } } : undefined,
    );
    const visited: string[] = [];
    await renderEngine({
      path: '/settings/parcels',
      extraResources: [parcels],
      onLocation: (p) => visited.push(p),
    });
    const row = (await screen.findByText('Lamp')).closest('tr') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Ship' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Ship it?')).toBeTruthy();
    await userEvent.type(within(dialog).getByRole('spinbutton', { name: /quantity/ }), '2');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ship' }));
    expect(await screen.findByText('Ship: done for Lamp')).toBeTruthy();
    expect(posts(calls)).toEqual([
      ['/api/v1/test/parcels/1/actions/ship', null, { version: 3, input: { quantity: 2 } }],
    ]);
    // Clicks in the button and its dialog did not open the row.
    expect(visited.filter((p) => p !== '/settings/parcels')).toEqual([]);
  });

  it('offer the bulk actions in the bulk bar, confirmed with the count, in one call', async () => {
    const calls = api((call) =>
      call.method === 'POST' ? { body: { code: 200, data: ['1', '2'] } } : undefined,
    );
    await renderEngine({ path: '/settings/parcels', extraResources: [parcels] });
    await screen.findByText('Desk');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select all' }));
    const toolbar = (await screen.findByText('2 items selected')).closest(
      '[data-test="bulk-actions-toolbar"]',
    ) as HTMLElement;
    // Only the bulk one: "Ship" takes one record.
    expect(within(toolbar).queryByRole('button', { name: 'Ship' })).toBeNull();
    await userEvent.click(await within(toolbar).findByRole('button', { name: 'Retire' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Retire: 2 selected')).toBeTruthy();
    expect(within(dialog).getByText('Retire them?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retire' }));
    expect(await screen.findByText('Retire: done for 2')).toBeTruthy();
    expect(posts(calls)).toEqual([['/api/v1/test/parcels/actions/retire', '1,2', {}]]);
  });

  it("put the actions in a phone's card", async () => {
    stubPhone();
    api();
    await renderEngine({ path: '/settings/parcels', extraResources: [parcels] });
    const card = (await screen.findByRole('heading', { name: 'Lamp', level: 2 })).closest(
      'li',
    ) as HTMLElement;
    expect(within(card).getByRole('button', { name: 'Ship' })).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Retire' })).toBeTruthy();
  });

  it('show a caller only the actions it holds', async () => {
    api();
    const shipper = {
      id: '2',
      is_admin: 0,
      roles: [{ id: '1', name: 'r', permissions: { menu_ids: ['test.parcels', 'test.parcels.ship'] } }],
    };
    await renderEngine({
      path: '/settings/parcels',
      extraResources: [parcels],
      profile: { id: '2', username: 'shipper', staff: shipper },
    });
    const row = (await screen.findByText('Lamp')).closest('tr') as HTMLElement;
    expect(within(row).getByRole('button', { name: 'Ship' })).toBeTruthy();
    expect(within(row).queryByRole('button', { name: 'Retire' })).toBeNull();
  });

  it('offer the bulk bar to a caller holding only a bulk action', async () => {
    api();
    const retirer = {
      id: '3',
      is_admin: 0,
      roles: [{ id: '1', name: 'r', permissions: { menu_ids: ['test.parcels', 'test.parcels.retire'] } }],
    };
    await renderEngine({
      path: '/settings/parcels',
      extraResources: [parcels],
      profile: { id: '3', username: 'retirer', staff: retirer },
    });
    const row = (await screen.findByText('Lamp')).closest('tr') as HTMLElement;
    expect(within(row).queryByRole('button', { name: 'Ship' })).toBeNull();
    await userEvent.click(within(row).getByRole('checkbox'));
    const toolbar = (await screen.findByText('1 item selected')).closest(
      '[data-test="bulk-actions-toolbar"]',
    ) as HTMLElement;
    expect(await within(toolbar).findByRole('button', { name: 'Retire' })).toBeTruthy();
    expect(within(toolbar).queryByRole('button', { name: 'Delete' })).toBeNull();
  });
});
