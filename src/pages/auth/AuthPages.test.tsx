import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import type { ReactElement } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { AppProviders } from '../../AppProviders.tsx';
import { i18n, initI18n } from '../../i18n/i18n.ts';
import { queryClient } from '../../providers/queryClient.ts';
import { LoginPage } from './LoginPage.tsx';
import { RegisterPage } from './RegisterPage.tsx';
import { ResetPage } from './ResetPage.tsx';

type Handler = (
  body: Record<string, unknown>,
) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;

const reply = ({ status = 200, body }: { status?: number; body: unknown }) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** A fake API: `routes` maps "METHOD /api/path" to a handler; calls are recorded. */
function stubApi(routes: Record<string, Handler>) {
  const calls: Array<{ key: string; body: Record<string, unknown> }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${String(input).split('?')[0]}`;
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    // The shell's start-up config call is not part of what these pages send.
    if (key !== 'GET /api/v1') calls.push({ key, body });
    const handler = routes[key];
    if (!handler) return reply({ status: 404, body: { code: 404, message: 'Not found', data: null } });
    return reply(await handler(body));
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderAt(path: string, element: ReactElement) {
  const route = path.split('?')[0]!;
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders client={queryClient}>
        <Routes>
          <Route path={route} element={element} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}

const tokenAnswer = { body: { code: 200, data: { access_token: 'tok-123', expires_at: null } } };

beforeAll(async () => {
  await initI18n('en');
});
beforeEach(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  Cookies.remove('access_token', { path: '/' });
});

describe('LoginPage', { timeout: 20_000 }, () => {
  it('labels its fields with autocomplete hints and shows the spec messages in place', async () => {
    const calls = stubApi({});
    renderAt('/login', <LoginPage />);
    const account = screen.getByLabelText(/Username, email or phone/);
    expect(account.getAttribute('autocomplete')).toBe('username');
    expect(screen.getByLabelText(/^Password/).getAttribute('autocomplete')).toBe('current-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // The schema loads on first use, so the messages come a moment after the click.
    expect(await screen.findByText('Please enter username')).toBeTruthy();
    expect(screen.getByText('Please enter password')).toBeTruthy();
    expect(calls).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/register');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/reset');
  });

  it('puts the server 422 message under the field, and a 429 above the form', async () => {
    let status = 422;
    stubApi({
      'POST /api/v1/user/login': () =>
        status === 422
          ? {
              status: 422,
              body: {
                code: 422,
                message: 'Incorrect account or password',
                data: null,
                errors: { username: ['Incorrect account or password'] },
              },
            }
          : {
              status: 429,
              body: { code: 429, message: 'Too many requests; please try again later', data: null },
            },
    });
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText(/Username, email or phone/), 'li');
    await userEvent.type(screen.getByLabelText(/^Password/), 'wrong-password{Enter}');
    expect(await screen.findByText('Incorrect account or password')).toBeTruthy();
    status = 429;
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Too many requests');
  });

  it('submits on Enter, is disabled while submitting, stores the token and goes to the safe href', async () => {
    let release: () => void = () => undefined;
    const calls = stubApi({
      'POST /api/v1/user/login': () => new Promise((resolve) => (release = () => resolve(tokenAnswer))),
    });
    renderAt('/login?href=%2Fsettings%2Fstaff%3Fpage%3D2', <LoginPage />);
    await userEvent.type(screen.getByLabelText(/Username, email or phone/), 'li@example.com');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-good-passphrase{Enter}');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Sign in' }).hasAttribute('disabled')).toBe(true),
    );
    act(() => release());
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/settings/staff?page=2'));
    expect(calls[0]).toEqual({
      key: 'POST /api/v1/user/login',
      body: { username: 'li@example.com', password: 'a-good-passphrase', remember: true },
    });
    expect(Cookies.get('access_token')).toBe('tok-123');
  });

  it('joins the invited staff record after signing in through an invitation link', async () => {
    const calls = stubApi({
      'POST /api/v1/user/login': () => tokenAnswer,
      'POST /api/v1/user/join': () => ({ body: { code: 200, data: { staff_id: '7' } } }),
    });
    renderAt('/login?invitation=inv-1', <LoginPage />);
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      '/register?invitation=inv-1',
    );
    await userEvent.type(screen.getByLabelText(/Username, email or phone/), 'li');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-good-passphrase{Enter}');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    expect(calls.map((c) => c.key)).toEqual(['POST /api/v1/user/login', 'POST /api/v1/user/join']);
    expect(calls[1]?.body).toEqual({ invitation: 'inv-1' });
  });

  it('shows the enrolment step when the 2FA policy asks for it, storing no token yet', async () => {
    const calls = stubApi({
      'POST /api/v1/user/login': () => ({
        body: {
          code: 200,
          data: { mfa_enrolment_required: true, enrolment_token: 'enrol-1', methods: ['totp'] },
        },
      }),
      'POST /api/v1/user/2fa/totp': () => ({
        body: { code: 200, data: { secret: 'ABC', otpauth_url: 'otpauth://x', qr_svg: '<svg></svg>' } },
      }),
    });
    Cookies.remove('access_token');
    renderAt('/login', <LoginPage />);
    await userEvent.type(screen.getByLabelText(/Username, email or phone/), 'li');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-good-passphrase{Enter}');
    await screen.findByText(i18n.t('auth.mfa.enrol_title'));
    expect(Cookies.get('access_token')).toBeUndefined();
    await waitFor(() => expect(calls.map((c) => c.key)).toContain('POST /api/v1/user/2fa/totp'));
  });

  it('signs in with the ticket an OpenID provider sent back, then goes to the safe href', async () => {
    const calls = stubApi({ 'POST /api/v1/oidc/login': () => tokenAnswer });
    renderAt('/login?oidc_ticket=t-1&href=%2Faccount%2Fprofile', <LoginPage />);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/account/profile'));
    expect(calls).toEqual([{ key: 'POST /api/v1/oidc/login', body: { ticket: 't-1' } }]);
    expect(Cookies.get('access_token')).toBe('tok-123');
  });

  it("says why an OpenID sign-in failed, from the callback's reason", async () => {
    stubApi({});
    renderAt('/login?oidc_error=not_linked', <LoginPage />);
    await screen.findByText(i18n.t('auth.oidc.errors.not_linked'));
  });

  it('ignores a hostile href and goes to /dashboard', async () => {
    stubApi({ 'POST /api/v1/user/login': () => tokenAnswer });
    renderAt('/login?href=%2F%2Fevil.example%2Fx', <LoginPage />);
    await userEvent.type(screen.getByLabelText(/Username, email or phone/), 'li');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-good-passphrase{Enter}');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
  });

  it('keeps a safe href on the register and reset links (and drops a hostile one)', async () => {
    stubApi({});
    const { unmount } = renderAt('/login?href=%2Faccount%2Fprofile', <LoginPage />);
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe(
      '/register?href=%2Faccount%2Fprofile',
    );
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe(
      '/reset?href=%2Faccount%2Fprofile',
    );
    unmount();
    renderAt('/login?href=%2F%2Fevil.example', <LoginPage />);
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/register');
  });

  it('speaks Chinese by default', async () => {
    await i18n.changeLanguage('zh-CN');
    stubApi({});
    renderAt('/login', <LoginPage />);
    expect(screen.getByRole('heading', { name: '登录' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '登录' }));
    expect(screen.getByText('请输入用户名')).toBeTruthy();
  });
});

describe('RegisterPage', { timeout: 20_000 }, () => {
  it('sends a code with a 60-second countdown, then registers and signs in', async () => {
    const calls = stubApi({
      'POST /api/v1/user/captcha': () => ({ body: { code: 200, data: { expires_in: 600, resend_in: 60 } } }),
      'POST /api/v1/user/register': () => tokenAnswer,
    });
    renderAt('/register', <RegisterPage />);
    await userEvent.type(screen.getByLabelText(/^Username/), 'newbie');
    const send = screen.getByRole('button', { name: 'Send code' });
    await userEvent.type(screen.getByRole('textbox', { name: /^Email/ }), 'new@example.com');
    await userEvent.click(send);
    expect(await screen.findByText('Captcha sent')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Resend in (60|59) s/ }).hasAttribute('disabled')).toBe(true);
    expect(calls[0]).toEqual({
      key: 'POST /api/v1/user/captcha',
      body: { channel: 'email', to: 'new@example.com', scene: 'register' },
    });
    await userEvent.type(screen.getByLabelText(/^Captcha/), '123456');
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-good-passphrase');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'a-good-passphrase{Enter}');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/dashboard'));
    expect(calls[1]!.body).toEqual({
      username: 'newbie',
      email: 'new@example.com',
      captcha: '123456',
      password: 'a-good-passphrase',
      password_confirmation: 'a-good-passphrase',
    });
    expect(Cookies.get('access_token')).toBe('tok-123');
  });

  it('checks the confirmation and shows a server message for the address in place', async () => {
    stubApi({
      'POST /api/v1/user/captcha': () => ({
        status: 422,
        body: { code: 422, message: 'x', data: null, errors: { to: ['Invalid phone number'] } },
      }),
    });
    renderAt('/register', <RegisterPage />);
    await userEvent.click(screen.getByRole('radio', { name: 'SMS' }));
    await userEvent.type(screen.getByRole('textbox', { name: /^Phone number/ }), '123');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Invalid phone number')).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/^Password/), 'a-good-passphrase');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'another-passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(screen.getByText('The passwords entered twice do not match')).toBeTruthy();
  });
});

describe('links back to sign in', { timeout: 20_000 }, () => {
  it('carry the href from the register and reset pages', async () => {
    stubApi({});
    const { unmount } = renderAt('/register?href=%2Faccount%2Fpassword', <RegisterPage />);
    expect(screen.getByRole('link', { name: 'Already have an account? Sign in' }).getAttribute('href')).toBe(
      '/login?href=%2Faccount%2Fpassword',
    );
    unmount();
    renderAt('/reset?href=%2Faccount%2Fpassword', <ResetPage />);
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe(
      '/login?href=%2Faccount%2Fpassword',
    );
  });
});

describe('ResetPage', { timeout: 20_000 }, () => {
  it('resets with a code and offers the way back to sign in', async () => {
    const calls = stubApi({
      'POST /api/v1/user/captcha': () => ({ body: { code: 200, data: {} } }),
      'POST /api/v1/user/reset': () => ({ body: { code: 200, data: null } }),
    });
    renderAt('/reset', <ResetPage />);
    await userEvent.type(screen.getByRole('textbox', { name: /^Email/ }), 'li@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Captcha sent')).toBeTruthy();
    await userEvent.type(screen.getByLabelText(/^Captcha/), '654321');
    await userEvent.type(screen.getByLabelText(/^New password/), 'a-new-passphrase');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'a-new-passphrase{Enter}');
    expect(await screen.findByText('Your password has been reset. Please sign in.')).toBeTruthy();
    expect(calls[1]).toEqual({
      key: 'POST /api/v1/user/reset',
      body: {
        channel: 'email',
        to: 'li@example.com',
        captcha: '654321',
        password: 'a-new-passphrase',
        password_confirmation: 'a-new-passphrase',
      },
    });
  });

  it('shows a wrong code under the captcha field', async () => {
    stubApi({
      'POST /api/v1/user/reset': () => ({
        status: 422,
        body: {
          code: 422,
          message: 'x',
          data: null,
          errors: { captcha: ['The captcha is wrong or has expired'] },
        },
      }),
    });
    renderAt('/reset', <ResetPage />);
    await userEvent.type(screen.getByRole('textbox', { name: /^Email/ }), 'li@example.com');
    await userEvent.type(screen.getByLabelText(/^Captcha/), '000000');
    await userEvent.type(screen.getByLabelText(/^New password/), 'a-new-passphrase');
    await userEvent.type(screen.getByLabelText(/^Confirm password/), 'a-new-passphrase{Enter}');
    expect(await screen.findByText('The captcha is wrong or has expired')).toBeTruthy();
  });
});
