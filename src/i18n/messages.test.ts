import { describe, expect, it } from 'vitest';
import { catalogs } from '../../locales/index.ts';
import { LOCALES, PUBLIC_NAMESPACES } from '../../locales/languages.ts';
import { loadMessages } from './messages.ts';

describe('loadMessages', () => {
  it.each(LOCALES)(
    '%s: the public and admin bundles together are exactly the catalogues the server reads',
    async (locale) => {
      const [publicPart, adminPart] = await Promise.all([
        loadMessages(locale, 'public'),
        loadMessages(locale, 'admin'),
      ]);
      expect(Object.keys(publicPart).sort()).toEqual([...PUBLIC_NAMESPACES].sort());
      expect(Object.keys(adminPart)).toContain('ra');
      expect({ ...publicPart, ...adminPart }).toEqual(catalogs[locale]);
    },
  );
});
