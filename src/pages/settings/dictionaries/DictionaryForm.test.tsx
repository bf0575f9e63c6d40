import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../../../engine/testing/fakeFetch.ts';
import { renderSettingsPage } from '../testing/renderSettingsPage.tsx';
import { ADMIN_PROFILE } from '../../../engine/testing/renderEngine.tsx';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
  Cookies.remove('access_token');
});

const EMPTY_ENTRY = 'Dictionary data label or value cannot be empty';

describe('dictionary entries, edited inline', () => {
  it('refuses an entry with an empty label before calling the server, then saves the entries', async () => {
    const calls = fakeFetch((call) =>
      call.method === 'POST'
        ? { status: 201, body: { code: 200, data: { id: '7', ...(call.body as object) } } }
        : { body: listEnvelope([]) },
    );
    await renderSettingsPage({ path: '/settings/dictionaries/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Priority');
    await userEvent.type(screen.getByRole('textbox', { name: /^Slug/ }), 'priority');
    await userEvent.click(screen.getByRole('button', { name: 'Add' }));
    const row = (await screen.findAllByRole('listitem'))[0]!;
    await userEvent.type(within(row).getByRole('textbox', { name: /^Value/ }), 'high');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(EMPTY_ENTRY)).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.type(within(row).getByRole('textbox', { name: /^Label/ }), '高');
    // The English label, shown to English users instead of the default language's.
    await userEvent.type(within(row).getByRole('textbox', { name: /^In English/ }), 'High');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/api/v1/dictionary/types');
    expect(post.body).toEqual({
      name: 'Priority',
      slug: 'priority',
      data: [{ label: '高', labels: { en: 'High' }, value: 'high', state: true, memo: '' }],
    });
  });

  it('loads the entries of a type on its edit page and shows the server 422 under the entry', async () => {
    const type = {
      id: '3',
      name: 'Gender',
      slug: 'gender',
      data: [{ label: 'Male', value: 'male', state: true, memo: '' }],
    };
    // An administrator (the record page is the edit form only for a caller who may update).
    Cookies.set('access_token', 'test-token');
    fakeFetch((call) =>
      call.path.endsWith('/user/profile')
        ? { body: { code: 200, data: ADMIN_PROFILE } }
        : call.method === 'PATCH'
          ? {
              status: 422,
              body: { code: 422, message: 'Invalid', errors: { 'data.0.value': [EMPTY_ENTRY] } },
            }
          : call.path.endsWith('/3')
            ? { body: { code: 200, data: type } }
            : { body: listEnvelope([type]) },
    );
    await renderSettingsPage({ path: '/settings/dictionaries/3' });
    const label = await screen.findByDisplayValue('Male');
    await userEvent.clear(label);
    await userEvent.type(label, 'Man');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(EMPTY_ENTRY)).toBeTruthy();
  });
});
