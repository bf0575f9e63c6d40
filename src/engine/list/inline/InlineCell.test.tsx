import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../../testing/fakeFetch.ts';
import type { FakeCall } from '../../testing/fakeFetch.ts';
import { renderEngine } from '../../testing/renderEngine.tsx';

const alice = {
  id: '1',
  name: 'Alice',
  email: 'alice@example.com',
  phone: null,
  gender: 'female',
  state: true,
  role_ids: [],
  version: 3,
};
const bob = { ...alice, id: '2', name: 'Bob', email: 'bob@example.com', version: 1 };

/** The contacts API: the list, and PATCH answered by `onPatch` (the saved record by default). */
function api(onPatch?: (call: FakeCall) => { status?: number; body: unknown } | undefined) {
  return fakeFetch((call) => {
    if (call.method === 'PATCH' && call.path === '/api/v1/test/contacts/1') {
      const custom = onPatch?.(call);
      if (custom) return custom;
      const body = call.body as Record<string, unknown>;
      return { body: { code: 200, data: { ...alice, ...body, version: Number(body.version) + 1 } } };
    }
    if (call.path === '/api/v1/test/contacts' && call.method === 'GET')
      return { body: listEnvelope([alice, bob]) };
    return { body: listEnvelope([]) };
  });
}

/** Focuses Alice's name cell and presses Enter: the editor of the name, labelled by its column. */
async function editAliceName() {
  const cell = await screen.findByRole('cell', { name: 'Alice' });
  const focusable = cell.querySelector<HTMLElement>('[data-grid-cell]')!;
  focusable.focus();
  await userEvent.keyboard('{Enter}');
  // The editor's chunk (the form's inputs and zod) loads on the first edit.
  const editor = await screen.findByRole('group', { name: /Editing Name/ }, { timeout: 10_000 });
  const input = within(editor).getByRole('textbox', { name: 'Name' });
  await waitFor(() => expect(document.activeElement).toBe(input));
  return { editor, input };
}

const patches = (calls: FakeCall[]) => calls.filter((c) => c.method === 'PATCH');

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => vi.unstubAllGlobals());

describe('inline editing in a list', () => {
  it('edits a cell with Enter, saves with Enter over the row version', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    const { input } = await editAliceName();
    await userEvent.clear(input);
    await userEvent.type(input, 'Alicia{Enter}');
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    expect(patches(calls)[0]?.body).toEqual({ name: 'Alicia', version: 3 });
    expect(await screen.findByRole('cell', { name: 'Alicia' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: /Editing/ })).toBeNull();
    // The focus is back on the cell, and the list did not open the record.
    expect(document.activeElement?.textContent).toBe('Alicia');
    expect(window.location.pathname).not.toMatch(/contacts\/1/);
  });

  it('cancels with Escape: nothing sent, the old value shown', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    const { input } = await editAliceName();
    await userEvent.type(input, 'xyz');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('group', { name: /Editing/ })).toBeNull());
    expect(screen.getByRole('cell', { name: 'Alice' })).toBeTruthy();
    expect(patches(calls)).toHaveLength(0);
  });

  it('checks with the form rules before sending: a blank required name is refused in the cell', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    const { editor, input } = await editAliceName();
    await userEvent.clear(input);
    await userEvent.keyboard('{Enter}');
    expect(await within(editor).findByText('Cannot be empty')).toBeTruthy();
    expect(patches(calls)).toHaveLength(0);
  });

  it("shows the server's 422 message in the cell and keeps the typed value", async () => {
    const calls = api(() => ({
      status: 422,
      body: { code: 422, message: 'Invalid', errors: { name: ['This value is already taken'] } },
    }));
    await renderEngine({ path: '/settings/contacts' });
    const { editor, input } = await editAliceName();
    await userEvent.clear(input);
    await userEvent.type(input, 'Bob{Enter}');
    expect(await within(editor).findByText('This value is already taken')).toBeTruthy();
    expect(patches(calls)).toHaveLength(1);
    expect((within(editor).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('Bob');
  });

  it('shows theirs on a 409, keeps the typed value, and the retry writes over their version', async () => {
    const theirs = { ...alice, name: 'Alina', version: 4 };
    const calls = api((call) =>
      (call.body as { version?: number }).version === 3
        ? { status: 409, body: { code: 409, message: 'Stale', data: theirs, errors: { version: ['Old'] } } }
        : undefined,
    );
    await renderEngine({ path: '/settings/contacts' });
    const { editor, input } = await editAliceName();
    await userEvent.clear(input);
    await userEvent.type(input, 'Alicia{Enter}');
    const alert = await within(editor).findByRole('alert');
    expect(alert.textContent).toMatch(/Changed by someone else: theirs is “Alina”/);
    const typed = within(editor).getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(typed.value).toBe('Alicia');
    typed.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(patches(calls)).toHaveLength(2));
    expect(patches(calls)[1]?.body).toEqual({ name: 'Alicia', version: 4 });
    expect(await screen.findByRole('cell', { name: 'Alicia' })).toBeTruthy();
  });

  it('moves between cells with the arrow keys, and Tab saves and moves to the next editable cell', async () => {
    const calls = api();
    await renderEngine({ path: '/settings/contacts' });
    const { input } = await editAliceName();
    await userEvent.type(input, '!');
    await userEvent.keyboard('{Tab}');
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    expect(patches(calls)[0]?.body).toEqual({ name: 'Alice!', version: 3 });
    // Email and phone are masked in lists (not editable): Tab lands on gender.
    await waitFor(() => expect(document.activeElement?.getAttribute('data-grid-cell')).toBe('gender'));
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement?.getAttribute('data-grid-cell')).toBe('gender');
    expect(document.activeElement?.closest('tr')).toBe(
      screen.getByRole('cell', { name: 'Bob' }).closest('tr'),
    );
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement?.getAttribute('data-grid-cell')).toBe('email');
  });

  it('a click selects the cell without opening the record; the cells hold one tab stop', async () => {
    api();
    let at = '';
    await renderEngine({ path: '/settings/contacts', onLocation: (pathname) => (at = pathname) });
    const name = (await screen.findByRole('cell', { name: 'Alice' })).querySelector<HTMLElement>(
      '[data-grid-cell]',
    )!;
    const stops = () => document.querySelectorAll('tbody [data-grid-cell][tabindex="0"]');
    // At first the first cell of the first row is the grid's tab stop.
    await waitFor(() => expect(Array.from(stops())).toEqual([name]));
    const gender = screen
      .getByRole('cell', { name: 'Bob' })
      .closest('tr')!
      .querySelector<HTMLElement>('[data-grid-cell="gender"]')!;
    await userEvent.click(gender);
    expect(document.activeElement).toBe(gender);
    expect(Array.from(stops())).toEqual([gender]);
    expect(screen.queryByRole('group', { name: /Editing/ })).toBeNull();
    expect(at).toBe('/settings/contacts');
    // Enter on a cell that cannot be edited (the masked email) opens the record.
    await userEvent.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement?.getAttribute('data-grid-cell')).toBe('email');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(at).toMatch(/^\/settings\/contacts\/2(\/show)?$/));
  });
});
