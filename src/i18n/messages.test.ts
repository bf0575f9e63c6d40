import { describe, expect, it } from 'vitest';
import { catalogs } from '../../locales/index.ts';
import { LOCALES, PUBLIC_NAMESPACES, bundleOfFile, namespaceOfFile } from '../../locales/languages.ts';
import type { Catalog } from '../../locales/languages.ts';
import { loadMessages } from './messages.ts';

/** The server's own messages (`<namespace>-server.json`), which no bundle holds. */
const SERVER_FILES = import.meta.glob<Catalog>('../../locales/*/*-server.json', {
  import: 'default',
  eager: true,
});

/** Deep merge, as i18next's lookup across the bundles sees them. */
function merge(target: Catalog, source: Catalog): Catalog {
  const out: Catalog = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const previous = out[key];
    out[key] =
      previous && typeof previous === 'object' && value && typeof value === 'object'
        ? merge(previous as Catalog, value as Catalog)
        : value;
  }
  return out;
}

describe('loadMessages', () => {
  it.each(LOCALES)(
    "%s: the public, admin, settings and system bundles and the server's own messages are the server's catalogues",
    async (locale) => {
      const [publicPart, adminPart, settingsPart, systemPart] = await Promise.all([
        loadMessages(locale, 'public'),
        loadMessages(locale, 'admin'),
        loadMessages(locale, 'settings'),
        loadMessages(locale, 'system'),
      ]);
      expect(Object.keys(publicPart).sort()).toEqual([...PUBLIC_NAMESPACES].sort());
      expect(Object.keys(adminPart).sort()).toEqual(['engine', 'ra', 'resources', 'settings', 'system']);
      expect(Object.keys(settingsPart)).toEqual(['settings']);
      expect(Object.keys(systemPart)).toEqual(['system']);
      // The server's own messages (<namespace>-server.json) are no bundle's: the browser never downloads them.
      expect(await loadMessages(locale, 'server')).toEqual({});
      const server = Object.fromEntries(
        Object.entries(SERVER_FILES)
          .filter(([file]) => file.split('/').at(-2) === locale)
          .map(([file, catalog]) => [namespaceOfFile(file), catalog]),
      );
      expect(Object.keys(server).sort()).toEqual(['auth', 'engine']);
      expect((adminPart.engine as Catalog).query).toBeUndefined();
      expect((publicPart.auth as Catalog).mail).toBeUndefined();
      expect([publicPart, adminPart, settingsPart, systemPart, server].reduce(merge, {})).toEqual(
        catalogs[locale],
      );
    },
  );

  it('keeps the screens texts out of the admin bundle, except what the shell shows everywhere', async () => {
    const admin = await loadMessages('en', 'admin');
    // The settings menu's entry for the users page and every edit screen's live-update banner.
    expect(admin.settings).toEqual({ people: { menu: { users: 'Users' } } });
    expect(Object.keys(admin.system as Catalog)).toEqual(['events']);
    const system = (await loadMessages('en', 'system')).system as Catalog;
    expect(system).toHaveProperty('dashboard.title', 'Dashboard');
    expect(system).not.toHaveProperty('events');
  });
});

describe('bundleOfFile', () => {
  it.each([
    ['locales/en/app.json', 'public'],
    ['locales/en/ra.json', 'admin'],
    ['locales/zh-CN/resources-people.json', 'admin'],
    ['locales/en/settings.json', 'settings'],
    ['locales/en/settings-shell.json', 'admin'],
    ['locales/zh-CN/system.json', 'system'],
    ['locales/zh-CN/system-shell.json', 'admin'],
    ['locales/en/engine-server.json', 'server'],
  ])('%s -> %s', (file, bundle) => {
    expect(bundleOfFile(file)).toBe(bundle);
  });
});
