import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { PublicApp } from './PublicApp.tsx';
import { i18n, initI18n } from './i18n/i18n.ts';
import { clearSiteStatus } from './providers/siteStatus.ts';

/** GET /api/v1 answering `status`; every call is counted. */
function stubStatus(status: string) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input).split('?')[0];
    const body =
      path === '/api/v1'
        ? { code: 200, message: 'ok', data: { status, config: { site_name: 'Acme' } } }
        : { code: 404, message: 'Not found', data: null };
    return new Response(JSON.stringify(body), {
      status: body.code,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderAt(path: string, onAdminPath = vi.fn()) {
  window.history.replaceState(null, '', path);
  render(<PublicApp onAdminPath={onAdminPath} />);
  return onAdminPath;
}

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => {
  clearSiteStatus();
  vi.unstubAllGlobals();
});

describe('the signed-out start (no react-router, no react-query)', { timeout: 20_000 }, () => {
  it('moves between the public pages through the history API, Back included', async () => {
    stubStatus('ready');
    renderAt('/login?href=%2Fsettings%2Fstaff');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(await screen.findByText('Acme')).toBeTruthy();
    const before = window.history.length;

    await userEvent.click(screen.getByRole('link', { name: 'Create an account' }));
    expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeTruthy();
    // The return address travels along, and the move added a history entry.
    expect(window.location.pathname + window.location.search).toBe('/register?href=%2Fsettings%2Fstaff');
    expect(window.history.length).toBe(before + 1);
    expect((window.history.state as { idx: number }).idx).toBe(1);

    act(() => {
      window.history.back();
    });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
  });

  it('sends every public page to the server error page when the system is not ready', async () => {
    stubStatus('maintenance');
    renderAt('/login');
    expect(await screen.findByRole('heading', { name: 'Server error' })).toBeTruthy();
    expect(window.location.pathname).toBe('/error/500');
  });

  it('hands an admin path over to the full app, once', async () => {
    stubStatus('ready');
    const onAdminPath = renderAt('/settings/staff');
    await waitFor(() => expect(onAdminPath).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('status')).toBeTruthy();
  });

  it('asks the server again when "Try again" leaves the error page', async () => {
    const fetchMock = stubStatus('maintenance');
    const onAdminPath = renderAt('/login');
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await userEvent.click(retry);
    // The retry goes to the dashboard, where the full app takes over ...
    await waitFor(() => expect(onAdminPath).toHaveBeenCalledTimes(1));
    expect(window.location.pathname).toBe('/dashboard');
    // ... and the kept "maintenance" (fresh for a minute) is gone: GET /api/v1 is asked again.
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
  });
});
