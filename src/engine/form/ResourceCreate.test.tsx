import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { renderEngine } from '../testing/renderEngine.tsx';

vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

/** The create form of `contacts`, filled and saved, against a server answering the POST with `answer`. */
async function saveAgainst(answer: { status: number; body: unknown }, locale: 'en' | 'zh-CN' = 'en') {
  fakeFetch((call) => (call.method === 'POST' ? answer : { body: listEnvelope([]) }));
  await renderEngine({ path: '/settings/contacts/create', locale });
  // The test resource's labels are its field names in both languages.
  const [name, email] = [/^Name/, /^Email/];
  // The first render loads the form's lazy chunks: a generous deadline on a loaded machine.
  await userEvent.type(await screen.findByRole('textbox', { name }, { timeout: 30_000 }), 'Erin');
  await userEvent.type(screen.getByRole('textbox', { name: email }), 'erin@example.com');
  await userEvent.click(screen.getByRole('button', { name: locale === 'en' ? 'Save' : '保存' }));
  const input = screen.getByRole('textbox', { name: email });
  await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
}

// Issue 36 item 4: a unique value held by a trashed record is a 409 "that says so, with a link to restore".
describe('a value held by a record in the trash', () => {
  it.each(['en', 'zh-CN'] as const)(
    '%s: the field says so and a notice links to the trash',
    async (locale) => {
      await saveAgainst(
        {
          status: 409,
          body: {
            code: 409,
            message: 'taken by a record in the trash',
            data: null,
            errors: { email: ['Taken by a record in the trash'], trashed_id: ['7'] },
          },
        },
        locale,
      );
      expect(screen.getByText('Taken by a record in the trash')).toBeTruthy();
      const link = await screen.findByRole('link', {
        name: locale === 'en' ? 'Open the trash' : '打开回收站',
      });
      expect(link.getAttribute('href')).toBe('/settings/contacts/trash');
    },
  );

  it('without the id (the caller may not restore it): the field message only, no link', async () => {
    await saveAgainst({
      status: 409,
      body: {
        code: 409,
        message: 'taken by a record in the trash',
        data: null,
        errors: { email: ['Taken by a record in the trash'] },
      },
    });
    expect(screen.getByText('Taken by a record in the trash')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Open the trash' })).toBeNull();
  });

  it('another refusal is still notified with its message', async () => {
    fakeFetch((call) =>
      call.method === 'POST'
        ? { status: 403, body: { code: 403, message: 'You may not create contacts', data: null } }
        : { body: listEnvelope([]) },
    );
    await renderEngine({ path: '/settings/contacts/create' });
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }, { timeout: 30_000 }), 'Erin');
    await userEvent.type(screen.getByRole('textbox', { name: /^Email/ }), 'erin@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('You may not create contacts', {}, { timeout: 10_000 })).toBeTruthy();
  });
});
