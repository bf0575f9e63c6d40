import { bundleOfNamespace, namespaceOfFile } from '../../locales/languages.ts';
import type { Catalog, Locale, MessageBundle } from '../../locales/languages.ts';

// One lazy module per catalogue file; vite.config.ts puts each language's public and admin files into one
// chunk each, so a bundle is one download.
const files = import.meta.glob<Catalog>('../../locales/*/*.json', { import: 'default' });

/**
 * One language's catalogues of one bundle (locales/languages.ts), merged as locales/index.ts merges them
 * for the server: `{ app: {...}, auth: {...} }`, resources*.json files all under `resources`.
 *
 * @example
 * const messages = await loadMessages('en', 'public'); // { app, auth, errors, validation }
 */
export async function loadMessages(locale: Locale, bundle: MessageBundle): Promise<Catalog> {
  const wanted = Object.keys(files)
    .filter((file) => file.split('/').at(-2) === locale)
    .map((file) => ({ file, namespace: namespaceOfFile(file) }))
    .filter(({ namespace }) => bundleOfNamespace(namespace) === bundle)
    // A namespace's own file first, then its extra files (resources.json, then resources-*.json).
    .sort(
      (a, b) => a.namespace.localeCompare(b.namespace) || rank(a) - rank(b) || a.file.localeCompare(b.file),
    );
  const loaded = await Promise.all(wanted.map(({ file }) => files[file]!()));
  const catalog: Catalog = {};
  wanted.forEach(({ namespace }, index) => {
    const previous = catalog[namespace] as Catalog | undefined;
    catalog[namespace] = previous ? { ...previous, ...loaded[index] } : loaded[index];
  });
  return catalog;
}

function rank({ file, namespace }: { file: string; namespace: string }): number {
  return file.endsWith(`/${namespace}.json`) ? 0 : 1;
}
