import { describe, expect, it } from 'vitest';
import { LOCALE_KEY, currentLocale, resolveInitialLocale } from './locale.ts';

describe('resolveInitialLocale', () => {
  it('takes the first server language on a first visit', () => {
    expect(resolveInitialLocale(['en', 'zh-CN'])).toBe('en');
  });

  it('keeps the stored locale on later visits', () => {
    localStorage.setItem(LOCALE_KEY, 'zh-CN');
    expect(resolveInitialLocale(['en', 'zh-CN'])).toBe('zh-CN');
  });

  it('falls back to zh-CN without a usable server list', () => {
    expect(resolveInitialLocale(undefined)).toBe('zh-CN');
    expect(resolveInitialLocale(['de', 'fr'])).toBe('zh-CN');
  });

  it('ignores an unsupported stored value', () => {
    localStorage.setItem(LOCALE_KEY, 'xx');
    expect(resolveInitialLocale(['en'])).toBe('en');
    expect(currentLocale()).toBe('zh-CN');
  });
});
