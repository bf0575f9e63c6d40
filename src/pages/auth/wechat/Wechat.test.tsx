import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import en from '../../../../locales/en/auth.json';
import enServer from '../../../../locales/en/auth-server.json';
import { AppProviders } from '../../../AppProviders.tsx';
import { i18n, initI18n } from '../../../i18n/i18n.ts';
import { queryClient } from '../../../providers/queryClient.ts';
import { LoginPage } from '../LoginPage.tsx';
import { AUTO_START_KEY, WechatButton } from './WechatButton.tsx';
import { identityKey, WechatIdentityCard } from './WechatIdentityCard.tsx';

type Handler = (body: Record<string, unknown>, url: string) => { status?: number; body: unknown };
const W = en.wechat;

const reply = ({ status = 200, body }: { status?: number; body: unknown }) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ok = (data: unknown) => ({ body: { code: 200, data } });

/** A fake API: "METHOD /api/path" -> handler; every call is recorded with its full URL. */
function stubApi(routes: Record<string, Handler>, { wechat = true } = {}) {
  const calls: Array<{ key: string; url: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const key = `${init?.method ?? 'GET'} ${url.split('?')[0]}`;
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      if (key === 'GET /api/v1') return reply(ok({ status: 'ready', config: { wechat } }));
      calls.push({ key, url, body });
      const handler = routes[key];
      if (!handler) return reply({ status: 404, body: { code: 404, message: 'Not found', data: null } });
      return reply(handler(body, url));
    }),
  );
  return calls;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderAt(path: string, element: ReactElement) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={queryClient}>
        <Routes>
          <Route path={path.split('?')[0]} element={element} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}

const AUTH_URL = 'https://open.weixin.qq.com/connect/oauth2/authorize?appid=wx1&state=s#wechat_redirect';
const ticket = {
  registration_ticket: 'ticket-1',
  expires_at: '2030-01-01T00:00:00Z',
  nickname: 'Xiao Ming',
  avatar: null,
  registration: true,
};

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
  sessionStorage.clear();
});
afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
  Cookies.remove('access_token', { path: '/' });
});

describe('WechatButton', { timeout: 20_000 }, () => {
  it('is absent when WeChat sign-in is off', async () => {
    stubApi({}, { wechat: false });
    renderAt('/login', <LoginPage />);
    await screen.findByRole('button', { name: 'Sign in' });
    // Barrier: the app config (GET /api/v1, which says wechat: false) has been fetched and settled.
    await waitFor(() => {
      expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).split('?')[0] === '/api/v1')).toBe(true);
      expect(queryClient.isFetching()).toBe(0);
    });
    expect(screen.queryByRole('button', { name: W.button })).toBeNull();
  });

  it('asks for the authorisation URL with the safe href and remember, then leaves for WeChat', async () => {
    const calls = stubApi({ 'GET /api/v1/wechat/officialaccount/auth': () => ok({ url: AUTH_URL }) });
    const onRedirect = vi.fn();
    renderAt(
      '/login',
      <WechatButton
        href="/settings/staff"
        remember
        onError={vi.fn()}
        isWeChat={false}
        onRedirect={onRedirect}
      />,
    );
    await userEvent.click(await screen.findByRole('button', { name: W.button }));
    await waitFor(() => expect(onRedirect).toHaveBeenCalledWith(AUTH_URL));
    expect(calls[0]!.url).toBe('/api/v1/wechat/officialaccount/auth?href=%2Fsettings%2Fstaff&remember=1');
  });

  it('starts by itself inside the WeChat browser, once per tab', async () => {
    const calls = stubApi({ 'GET /api/v1/wechat/officialaccount/auth': () => ok({ url: AUTH_URL }) });
    const onRedirect = vi.fn();
    const view = renderAt(
      '/login',
      <WechatButton href="//evil.example" onError={vi.fn()} isWeChat onRedirect={onRedirect} />,
    );
    await waitFor(() => expect(onRedirect).toHaveBeenCalledTimes(1));
    expect(calls[0]!.url).toBe('/api/v1/wechat/officialaccount/auth');
    expect(sessionStorage.getItem(AUTO_START_KEY)).toBe('1');
    view.unmount();
    renderAt('/login', <WechatButton onError={vi.fn()} isWeChat onRedirect={onRedirect} />);
    await screen.findByRole('button', { name: W.button });
    expect(onRedirect).toHaveBeenCalledTimes(1);
  });
});

describe('return from WeChat', { timeout: 20_000 }, () => {
  it('signs a linked user in and goes to the safe href', async () => {
    const calls = stubApi({
      'POST /api/v1/wechat/officialaccount/login': () => ok({ access_token: 'tok-wx', expires_at: null }),
    });
    renderAt('/login?href=%2Fsettings&code=c-linked&state=s1', <LoginPage />);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/settings'));
    expect(Cookies.get('access_token')).toBe('tok-wx');
    expect(calls.filter((c) => c.key.endsWith('/login'))).toEqual([
      expect.objectContaining({ body: { code: 'c-linked', state: 's1' } }),
    ]);
  });

  it('shows the server’s reason and the way back when WeChat refused', async () => {
    stubApi({
      'POST /api/v1/wechat/officialaccount/login': () => ({
        status: 422,
        body: { code: 422, message: enServer.wechat.errors.code_used, data: null },
      }),
    });
    renderAt('/login?code=c-used&state=s2', <LoginPage />);
    expect((await screen.findByRole('alert')).textContent).toBe(enServer.wechat.errors.code_used);
    expect(screen.getByRole('link', { name: W.back_to_login }).getAttribute('href')).toBe('/login');
  });

  it('offers a new account or linking; a wrong password shows in place, the right one signs in', async () => {
    let isRight = false;
    const calls = stubApi({
      'POST /api/v1/wechat/officialaccount/login': () => ok(ticket),
      'POST /api/v1/wechat/officialaccount/register': () =>
        isRight
          ? ok({ access_token: 'tok-linked', expires_at: '2030-01-01T00:00:00Z' })
          : {
              status: 422,
              body: { code: 422, message: en.failed, data: null, errors: { username: [en.failed] } },
            },
    });
    renderAt('/login?code=c-new&state=s3', <LoginPage />);
    expect(await screen.findByText(/Welcome, Xiao Ming/)).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: W.register.link_account }));
    await userEvent.type(screen.getByLabelText(/Username, email or phone/), 'linda');
    await userEvent.type(screen.getByLabelText(/^Password/), 'wrong{Enter}');
    expect(await screen.findByText(en.failed)).toBeTruthy();
    isRight = true;
    await userEvent.click(screen.getByRole('button', { name: W.register.submit_link }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    expect(Cookies.get('access_token')).toBe('tok-linked');
    expect(calls.at(-1)!.body).toEqual({
      ticket: 'ticket-1',
      link: { username: 'linda', password: 'wrong' },
    });
  });

  it('creates a new account with a username only', async () => {
    const calls = stubApi({
      'POST /api/v1/wechat/officialaccount/login': () => ok(ticket),
      'POST /api/v1/wechat/officialaccount/register': () => ok({ access_token: 'tok-new', expires_at: null }),
    });
    renderAt('/login?code=c-new2&state=s4', <LoginPage />);
    await userEvent.click(await screen.findByRole('button', { name: W.register.submit_new }));
    expect(await screen.findByText('Please enter username')).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/^Username/), 'xiaoming{Enter}');
    await waitFor(() => expect(Cookies.get('access_token')).toBe('tok-new'));
    expect(calls.at(-1)!.body).toEqual({ ticket: 'ticket-1', username: 'xiaoming' });
  });
});

describe('WechatIdentityCard', { timeout: 20_000 }, () => {
  const linked = (hasPassword: boolean) =>
    ok({
      enabled: true,
      has_password: hasPassword,
      identity: { nickname: 'Xiao Ming', avatar: null, linked_at: '2030-01-01T00:00:00Z' },
    });

  it('unlinks after confirmation when the account has a password', async () => {
    let isLinked = true;
    const calls = stubApi({
      'GET /api/v1/wechat/officialaccount/identity': () =>
        isLinked ? linked(true) : ok({ enabled: true, has_password: true, identity: null }),
      'DELETE /api/v1/wechat/officialaccount/identity': () => {
        isLinked = false;
        return ok(null);
      },
    });
    renderAt('/account/profile', <WechatIdentityCard />);
    expect(await screen.findByText('Linked to WeChat user Xiao Ming')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: W.account.unlink }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: W.account.unlink }));
    expect(await screen.findByText(W.account.unlinked)).toBeTruthy();
    expect(await screen.findByText(W.account.not_linked)).toBeTruthy();
    expect(calls.some((c) => c.key.startsWith('DELETE'))).toBe(true);
  });

  it('offers no unlink without a password, and shows nothing when off and unlinked', async () => {
    stubApi({ 'GET /api/v1/wechat/officialaccount/identity': () => linked(false) });
    const view = renderAt('/account/profile', <WechatIdentityCard />);
    expect(await screen.findByText(W.account.needs_password)).toBeTruthy();
    expect(screen.queryByRole('button', { name: W.account.unlink })).toBeNull();
    view.unmount();
    queryClient.clear();
    stubApi({
      'GET /api/v1/wechat/officialaccount/identity': () =>
        ok({ enabled: false, has_password: true, identity: null }),
    });
    renderAt('/account/profile', <WechatIdentityCard />);
    // Barrier: the identity (enabled: false) has arrived, so the card has decided not to render.
    await waitFor(() => expect(queryClient.getQueryState(identityKey)?.status).toBe('success'));
    expect(screen.queryByRole('heading', { name: W.account.title })).toBeNull();
  });
});
