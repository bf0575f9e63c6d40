import { describe, expect, it } from 'vitest';
import { catalogs } from '../../locales/index.ts';
import { pageTitleOf } from './pageTitle.ts';
import { publicPageTitleOf } from './publicTitle.ts';

/** A plain lookup in the English catalogue, with i18next's `_one`/`_other` and `{{name}}`. */
const t = (key: string, options: Record<string, unknown> = {}) => {
  let node: unknown = catalogs.en;
  const parts = key.split('.');
  for (const [i, part] of parts.entries()) {
    const next = (node as Record<string, unknown>)?.[part];
    const plural = (node as Record<string, unknown>)?.[`${part}_${options.count === 1 ? 'one' : 'other'}`];
    node = next ?? (i === parts.length - 1 ? plural : undefined);
  }
  return typeof node === 'string'
    ? node.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(options[k]))
    : key;
};

describe('pageTitleOf', () => {
  it('names settings pages from the menu and records by their representation', () => {
    expect(pageTitleOf('/settings/staff/2', t, { recordLabel: 'Li Lei', language: 'en' })).toEqual({
      title: 'Li Lei',
      crumbs: [
        { label: 'Settings', to: '/settings' },
        { label: 'Staff', to: '/settings/staff' },
        { label: 'Li Lei' },
      ],
    });
    expect(pageTitleOf('/settings/staff/2/show', t).title).toBe('#2');
    expect(pageTitleOf('/settings/roles/create', t, { language: 'en' }).title).toBe('New role');
    expect(pageTitleOf('/settings', t).crumbs.map((c) => c.label)).toEqual(['Settings', 'General']);
    expect(pageTitleOf('/settings/logs', t).title).toBe('Logs');
    expect(pageTitleOf('/settings/users', t).title).toBe('Users');
    expect(pageTitleOf('/settings/roles/trash', t, { language: 'en' })).toEqual({
      title: 'Trash',
      crumbs: [
        { label: 'Settings', to: '/settings' },
        { label: 'Roles', to: '/settings/roles' },
        { label: 'Trash' },
      ],
    });
  });

  it('names the account and dashboard pages', () => {
    expect(pageTitleOf('/account/password', t).crumbs.map((c) => c.label)).toEqual([
      'My account',
      'Password',
    ]);
    expect(pageTitleOf('/dashboard', t)).toEqual({ title: 'Dashboard', crumbs: [{ label: 'Dashboard' }] });
  });

  it('names the signed-out pages after their headings', () => {
    expect(publicPageTitleOf('/', t)).toBe('Sign in');
    expect(publicPageTitleOf('/login', t)).toBe('Sign in');
    expect(publicPageTitleOf('/register/', t)).toBe('Create an account');
    expect(publicPageTitleOf('/reset', t)).toBe('Reset password');
    expect(publicPageTitleOf('/dashboard', t)).toBeNull();
  });
});
