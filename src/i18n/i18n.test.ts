import { beforeAll, describe, expect, it } from 'vitest';
import type { I18nProvider } from 'react-admin';
import { i18n, initI18n, loadAdminMessages } from './i18n.ts';
import { LOCALE_KEY } from './locale.ts';

describe('i18n', () => {
  let provider: I18nProvider;
  beforeAll(async () => {
    provider = await initI18n('zh-CN');
  });

  it('starts with the public messages of one language and adds the admin ones on demand', async () => {
    expect(provider.translate('auth.login.title')).toBe('登录');
    expect(i18n.hasResourceBundle('zh-CN', 'admin')).toBe(false);
    expect(i18n.hasResourceBundle('en', 'public')).toBe(false);
    await loadAdminMessages();
    expect(provider.translate('ra.action.save')).toBe('保存');
    expect(i18n.hasResourceBundle('en', 'admin')).toBe(false);
  });

  it('loads a screen bundle on demand, and in the new language on every later switch', async () => {
    await provider.changeLocale('zh-CN');
    expect(i18n.hasResourceBundle('zh-CN', 'system')).toBe(false);
    // The shell's few texts of a screen namespace come with the admin bundle.
    expect(provider.translate('system.events.reload')).toBe('重新加载');
    await loadAdminMessages(['system']);
    expect(provider.translate('system.dashboard.title')).toBe('仪表盘');
    expect(i18n.hasResourceBundle('zh-CN', 'settings')).toBe(false);
    await provider.changeLocale('en');
    // The switch waited for the system texts of English too: no key, no Chinese.
    expect(provider.translate('system.dashboard.title')).toBe('Dashboard');
    expect(provider.translate('system.events.reload')).toBe('Reload');
    expect(i18n.hasResourceBundle('en', 'settings')).toBe(false);
    await provider.changeLocale('zh-CN');
  });

  it("translates react-admin's messages with plurals and placeholders in both languages", async () => {
    await provider.changeLocale('zh-CN');
    expect(provider.translate('ra.action.save')).toBe('保存');
    expect(
      provider.translate('ra.navigation.page_range_info', { offsetBegin: 1, offsetEnd: 10, total: 42 }),
    ).toBe('第 1-10 条，共 42 条');
    await provider.changeLocale('en');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 1 })).toBe('1 item selected');
    expect(provider.translate('ra.action.bulk_actions', { smart_count: 3 })).toBe('3 items selected');
    expect(provider.translate('app.errors.404.title')).toBe('Page not found');
  });

  it('falls back to the default text react-admin passes for unknown keys', () => {
    expect(provider.translate('resources.nope.name', { _: 'Nope' })).toBe('Nope');
  });

  it('keeps a colon in free text instead of reading it as a namespace', () => {
    expect(provider.translate('Time: now')).toBe('Time: now');
  });

  it('stores the language and sets <html lang> on every change', async () => {
    await i18n.changeLanguage('en');
    expect(localStorage.getItem(LOCALE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    await i18n.changeLanguage('zh-CN');
    expect(localStorage.getItem(LOCALE_KEY)).toBe('zh-CN');
  });
});
