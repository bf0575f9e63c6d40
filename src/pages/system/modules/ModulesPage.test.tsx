import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpSystemPage, fakeApi, renderSystemPage } from '../testing/renderSystemPage.tsx';
import { ModulesPage } from './ModulesPage.tsx';

const module = (name: string, title: string, core = false) => ({
  name,
  title,
  description: '',
  core,
  enabled: true,
});

describe('ModulesPage', { timeout: 30_000 }, () => {
  afterEach(cleanUpSystemPage);

  it('names each module in the language shown, and a module without a catalogue entry by its title', async () => {
    // The server answered in Chinese (another language than the page's); the page names built-in modules
    // from its own catalogue, and a developer's module ("shop") by the title it was given.
    fakeApi({
      'GET /api/v1/system/modules': () => [
        module('users', '用户', true),
        module('wechat', '微信'),
        module('shop', 'shop'),
      ],
    });
    await renderSystemPage(<ModulesPage />);
    const table = await screen.findByRole('table');
    const wechat = await within(table).findByRole('row', { name: /WeChat/ });
    expect(within(wechat).getByText('Sign-in through the WeChat official account.')).toBeTruthy();
    expect(within(wechat).getByRole('switch', { name: 'WeChat: Enabled' })).toBeTruthy();
    expect(within(table).getByRole('row', { name: /Users/ })).toBeTruthy();
    expect(within(table).queryByText(/用户|微信/)).toBeNull();
    expect(within(table).getByRole('row', { name: /shop/ })).toBeTruthy();
  });
});
