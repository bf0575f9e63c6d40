import { bundleOfFile, namespaceOfFile } from '../../locales/languages.ts';
import type { Catalog, Locale, MessageBundle } from '../../locales/languages.ts';

// One lazy module per catalogue file; vite.config.ts puts each language's files of one bundle (public, admin,
// settings, system) into one chunk, so a bundle is one download. The server's own messages
// (`*-server.json`) are not the browser's.
const files = import.meta.glob<Catalog>(['../../locales/*/*.json', '!../../locales/*/*-server.json'], {
  import: 'default',
});

/**
 * One language's catalogues of one bundle (locales/languages.ts), merged as locales/index.ts merges them
 * for the server: `{ app: {...}, auth: {...} }`, resources*.json files all under `resources`. A screen namespace
 * is split between its own bundle and `admin` (its `-shell.json` file): together they make the server's.
 *
 * @example
 * const messages = await loadMessages('en', 'public'); // { app, auth, errors, validation }
 */
export async function loadMessages(locale: Locale, bundle: MessageBundle): Promise<Catalog> {
  const wanted = Object.keys(files)
    .filter((file) => file.split('/').at(-2) === locale)
    .filter((file) => bundleOfFile(file) === bundle)
    .map((file) => ({ file, namespace: namespaceOfFile(file) }))
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
