import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, type FakeCall } from '../../../engine/testing/fakeFetch.ts';
import { renderSettingsPage } from '../testing/renderSettingsPage.tsx';
import { GeneralSettingsPage } from './GeneralSettingsPage.tsx';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => {
  vi.unstubAllGlobals();
  Cookies.remove('access_token');
});

const STORED: Record<string, Record<string, unknown>> = {
  basic: { upload_max_size: 10485760, activity_retention_days: 180 },
  site: { site_name: 'Admin', site_logo: '' },
  login: {
    registration: true,
    methods: ['password'],
    wechat_enabled: false,
    wechat_app_id: '',
    wechat_app_secret_set: false,
    require_2fa: 'none',
    oidc_providers: [
      {
        id: 'corp',
        label: 'Corp SSO',
        issuer: 'https://idp.example.com',
        client_id: 'admin',
        client_secret_set: true,
        scopes: ['openid', 'email'],
        claim_username: 'preferred_username',
        auto_create: false,
        default_role_ids: [],
      },
    ],
  },
  message: {
    smtp_url_set: false,
    smtp_url_source: 'environment',
    mail_from: 'noreply@example.com',
    templates: {},
  },
  sms: {
    provider: 'log',
    endpoint: '',
    access_key_id: 'AK',
    access_key_secret_set: true,
    sign_name: '',
    template: '',
  },
};

const WRITER = {
  id: '2',
  is_admin: 0,
  roles: [
    {
      id: '1',
      permissions: {
        menu_ids: ['system.settings', 'system.settings.general', 'system.settings.general.update'],
      },
    },
  ],
};

function server(staff: Record<string, unknown> = { id: '1', is_admin: 1 }) {
  Cookies.set('access_token', 'test-token');
  return fakeFetch((call: FakeCall) => {
    // Saving needs system.settings.general.update: by default the signed-in staff member is an administrator.
    if (call.path.endsWith('/user/profile'))
      return { body: { code: 200, data: { id: '1', username: 'admin', staff } } };
    // The providers editor offers roles for new accounts (a list page of the roles resource).
    if (call.path.endsWith('/user/roles'))
      return { body: { code: 200, data: { data: [{ id: '1', name: 'Readers' }], meta: {} } } };
    // The mail template preview: the server's rendering, markup included, to be shown as text.
    if (call.path.endsWith('/settings/message/preview'))
      return { body: { code: 200, data: { subject: 'Rendered subject', text: '<b>246810</b>' } } };
    const group = call.path.split('/').pop()!;
    if (call.method === 'POST') {
      const body = call.body as Record<string, unknown>;
      if (group === 'site' && body.site_name === 'taken')
        return {
          status: 422,
          body: { code: 422, message: 'Invalid', errors: { site_name: ['Server says no'] } },
        };
      return { body: { code: 200, data: body } };
    }
    return { body: { code: 200, data: STORED[group] ?? {} } };
  });
}

describe('general settings', () => {
  it('shows a tab per settings group of the contract', async () => {
    server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    const tabs = await screen.findAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual([
      'Basic',
      'SMS',
      'Login',
      'Site',
      'Country',
      'Currency',
      'Languages',
      'Levels',
      'Message',
    ]);
    // The upload limit reads in MB (stored in bytes).
    const limit = await screen.findByDisplayValue('10');
    expect(limit.closest('.MuiInputBase-root')?.textContent).toContain('MB');
  });

  it('saves the upload limit typed in MB as bytes', async () => {
    const calls = server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    const limit = await screen.findByDisplayValue('10');
    await userEvent.clear(limit);
    await userEvent.type(limit, '25');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ upload_max_size: 25 * 1024 * 1024 });
  });

  it('validates with the group schema before saving, then saves ("Save successful")', async () => {
    const calls = server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    await userEvent.click(await screen.findByRole('tab', { name: 'Site' }));
    const name = await screen.findByDisplayValue('Admin');
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Cannot be empty')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.type(name, 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Save successful')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ site_name: 'Acme', site_logo: '' });
  });

  it('shows a server field error under its input', async () => {
    server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    await userEvent.click(await screen.findByRole('tab', { name: 'Site' }));
    const name = await screen.findByDisplayValue('Admin');
    await userEvent.clear(name);
    await userEvent.type(name, 'taken');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Server says no')).toBeTruthy();
  });

  it('keeps secrets write-only: says whether one is set, and a blank field keeps it', async () => {
    const calls = server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    await userEvent.click(await screen.findByRole('tab', { name: 'SMS' }));
    expect(await screen.findByText('Set (leave empty to keep)')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Signature' }), 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ access_key_secret: '', sign_name: 'Acme', access_key_id: 'AK' });
    expect(body).not.toHaveProperty('access_key_secret_set');
  });

  it('edits the 2FA policy and the OpenID providers, keeping a provider secret left blank', async () => {
    const calls = server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    await userEvent.click(await screen.findByRole('tab', { name: 'Login' }));
    expect(await screen.findByDisplayValue('Corp SSO')).toBeTruthy();
    expect(
      screen.getByText(
        `Callback address to register at the provider: ${window.location.origin}/api/v1/oidc/corp/callback`,
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('combobox', { name: 'Require two-step verification' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Administrators' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body.require_2fa).toBe('admins');
    expect(body.oidc_providers).toEqual([
      expect.objectContaining({ id: 'corp', client_secret: '', scopes: ['openid', 'email'] }),
    ]);
    expect((body.oidc_providers as object[])[0]).not.toHaveProperty('client_secret_set');
  });

  it('says the SMTP URL in use comes from the environment, and never sends that fact back', async () => {
    const calls = server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    await userEvent.click(await screen.findByRole('tab', { name: 'Message' }));
    expect(await screen.findByText(/In use: SMTP_URL from the server environment/)).toBeTruthy();
    expect(screen.queryByText('Not set')).toBeNull();
    const from = screen.getByDisplayValue('noreply@example.com');
    await userEvent.clear(from);
    await userEvent.type(from, 'mail@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.body as Record<string, unknown>;
    expect(body).toMatchObject({ smtp_url: '', mail_from: 'mail@example.com' });
    expect(body).not.toHaveProperty('smtp_url_source');
  });

  it('shows the delivery keys read-only to a general settings writer, who still saves the rest', async () => {
    const calls = server(WRITER);
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    await userEvent.click(await screen.findByRole('tab', { name: 'SMS' }));
    expect(await screen.findByText(/Only administrators, or roles with/)).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Access key ID' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('textbox', { name: 'Endpoint' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Access key secret') as HTMLInputElement).disabled).toBe(true);
    const signature = screen.getByRole('textbox', { name: 'Signature' });
    expect((signature as HTMLInputElement).disabled).toBe(false);
    await userEvent.type(signature, 'Acme');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      provider: 'log',
      endpoint: '',
      access_key_id: 'AK',
      access_key_secret: '',
      sign_name: 'Acme',
      template: '',
    });
  });

  it('an administrator sees no such note and may edit them', async () => {
    server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    await userEvent.click(await screen.findByRole('tab', { name: 'SMS' }));
    expect(
      ((await screen.findByRole('textbox', { name: 'Access key ID' })) as HTMLInputElement).disabled,
    ).toBe(false);
    expect(screen.queryByText(/Only administrators, or roles with/)).toBeNull();
  });

  it('edits mail templates per language, checks placeholders and previews as text', async () => {
    const calls = server();
    await renderSettingsPage({ path: '/settings', element: <GeneralSettingsPage /> });
    await userEvent.click(await screen.findByRole('tab', { name: 'Message' }));
    const bodies = await screen.findAllByRole('textbox', { name: /^Body/ });
    // Two languages by two mails.
    expect(bodies).toHaveLength(4);
    expect(screen.getAllByText(/Placeholders: \{\{code\}\} \{\{minutes\}\}/).length).toBe(2);
    await userEvent.type(bodies[0]!, 'Open {{{{url}}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const placeholderError = await screen.findByText(/is not a placeholder of this mail/);
    expect(placeholderError.textContent).toContain('{{url}}');
    expect(await screen.findByText('Enter a subject: a mail with a body needs one')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(screen.getAllByRole('button', { name: 'Preview' })[0]!);
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/message/preview'))).toBe(true));
    expect(calls.find((c) => c.path.endsWith('/message/preview'))!.body).toMatchObject({
      template: 'code',
      body: 'Open {{url}}',
    });
    const region = await screen.findByRole('region', { name: 'Preview' });
    expect(region.textContent).toContain('<b>246810</b>');
    expect(region.querySelector('b')).toBeNull();
  });
});
