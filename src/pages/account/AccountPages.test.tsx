import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { AppProviders } from '../../AppProviders.tsx';
import { i18n, initI18n } from '../../i18n/i18n.ts';
import { queryClient } from '../../providers/queryClient.ts';
import { PasswordPage } from './PasswordPage.tsx';
import { ProfilePage } from './ProfilePage.tsx';

type Answer = { status?: number; body: unknown };

function stubApi(routes: Record<string, (body: Record<string, unknown>) => Answer>) {
  const calls: Array<{ key: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${String(input).split('?')[0]}`;
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      if (key !== 'GET /api/v1') calls.push({ key, body });
      const answer = routes[key]?.(body) ?? {
        status: 404,
        body: { code: 404, message: 'Not found', data: null },
      };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status ?? 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return calls;
}

const renderPage = (element: ReactElement) =>
  render(
    <MemoryRouter>
      <AppProviders client={queryClient}>{element}</AppProviders>
    </MemoryRouter>,
  );

const profile = {
  id: '7',
  username: 'li',
  name: 'Li Lei',
  email: 'li@example.com',
  phone: null,
  avatar: null,
};

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe('ProfilePage', { timeout: 20_000 }, () => {
  it('loads the profile, saves the name and says so', async () => {
    const calls = stubApi({
      'GET /api/v1/user/profile': () => ({ body: { code: 200, data: profile } }),
      'POST /api/v1/user/profile': (body) => ({ body: { code: 200, data: { ...profile, ...body } } }),
    });
    renderPage(<ProfilePage />);
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect((name as HTMLInputElement).value).toBe('Li Lei');
    expect(name.getAttribute('autocomplete')).toBe('name');
    await userEvent.clear(name);
    await userEvent.type(name, 'Li Lei Jr{Enter}');
    expect(await screen.findByText('Save successful')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/v1/user/profile')?.body).toEqual({ name: 'Li Lei Jr' });
  });

  it('asks for a code when the email changes and sends it to the new address', async () => {
    const calls = stubApi({
      'GET /api/v1/user/profile': () => ({ body: { code: 200, data: profile } }),
      'POST /api/v1/user/captcha': () => ({ body: { code: 200, data: {} } }),
      'POST /api/v1/user/profile': () => ({
        status: 422,
        body: {
          code: 422,
          message: 'x',
          data: null,
          errors: { captcha: ['The captcha is wrong or has expired'] },
        },
      }),
    });
    renderPage(<ProfilePage />);
    const email = await screen.findByRole('textbox', { name: 'Email' });
    expect(screen.queryByRole('textbox', { name: /Captcha/ })).toBeNull();
    await userEvent.clear(email);
    await userEvent.type(email, 'new@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Captcha sent')).toBeTruthy();
    expect(calls.find((c) => c.key === 'POST /api/v1/user/captcha')?.body).toEqual({
      channel: 'email',
      to: 'new@example.com',
      scene: 'bind',
    });
    await userEvent.type(screen.getByRole('textbox', { name: /Captcha/ }), '111111{Enter}');
    expect(await screen.findByText('The captcha is wrong or has expired')).toBeTruthy();
  });
});

describe('PasswordPage', { timeout: 20_000 }, () => {
  it('shows a wrong current password in place, then succeeds and clears the form', async () => {
    let isOldRight = false;
    const calls = stubApi({
      'POST /api/v1/user/password': () =>
        isOldRight
          ? { body: { code: 200, data: null } }
          : {
              status: 422,
              body: {
                code: 422,
                message: 'x',
                data: null,
                errors: { old_password: ['The current password is incorrect'] },
              },
            },
    });
    renderPage(<PasswordPage />);
    const old = screen.getByLabelText(/^Current password/);
    expect(old.getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByLabelText(/^New password/).getAttribute('autocomplete')).toBe('new-password');
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(screen.getAllByText('Please enter password').length).toBe(3);
    expect(calls).toHaveLength(0);

    await userEvent.type(old, 'old-passphrase');
    await userEvent.type(screen.getByLabelText(/^New password/), 'short');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'short{Enter}');
    expect(screen.getByText('The password format is incorrect')).toBeTruthy();

    await userEvent.clear(screen.getByLabelText(/^New password/));
    await userEvent.clear(screen.getByLabelText(/^Confirm password/));
    await userEvent.type(screen.getByLabelText(/^New password/), 'a-new-passphrase');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'a-new-passphrase{Enter}');
    expect(await screen.findByText('The current password is incorrect')).toBeTruthy();

    isOldRight = true;
    await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed. Other sessions have been signed out.')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getByLabelText(/^Current password/) as HTMLInputElement).value).toBe(''),
    );
    expect(calls.at(-1)?.body).toEqual({
      old_password: 'old-passphrase',
      password: 'a-new-passphrase',
      password_confirmation: 'a-new-passphrase',
    });
  });
});
