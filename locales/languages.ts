/**
 * The supported languages and how the client groups the catalogues into downloads, without importing any
 * catalogue: the client's start-up code and vite.config.ts read this, the server reads locales/index.ts.
 */
export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

export type Catalog = Record<string, unknown>;

/**
 * The client downloads a language's catalogues in parts: `public` (what the sign-in, register, reset and
 * error pages show) at start-up, `admin` (react-admin's `ra`, the generated screens' `engine`, `resources`
 * and what the admin shell shows on every page) with the admin shell, and one part per screen namespace
 * (`settings`, `system`) with the screens that show it (src/admin/lazyScreen.ts), so the first list page
 * does not download the dashboard's, the system pages' or the people pages' texts. A screen namespace's
 * `<namespace>-shell.json` holds the few of its messages the shell shows everywhere (a menu entry, the
 * live-update banner of every edit screen) and goes with `admin`. A namespace not listed here is an admin one.
 * A `<namespace>-server.json` file holds messages only the server sends (already translated: query, record
 * and CSV errors): the `server` part, which the browser never downloads.
 */
export type MessageBundle = 'public' | 'admin' | 'server' | ScreenBundle;
export type ScreenBundle = (typeof SCREEN_NAMESPACES)[number];
export const PUBLIC_NAMESPACES: readonly string[] = ['app', 'auth', 'errors', 'validation'];
export const SCREEN_NAMESPACES = ['settings', 'system'] as const;

/**
 * The namespace of a catalogue file: `locales/en/resources-people.json` -> `resources` (the resources*.json
 * files all feed `resources.<name>`).
 */
export function namespaceOfFile(file: string): string {
  const base = file.replace(/^.*\//, '').replace(/\.json$/, '');
  return base.split('-')[0] ?? base;
}

/** The part a namespace's messages belong to (its own file's part; see bundleOfFile for the others). */
export function bundleOfNamespace(namespace: string): MessageBundle {
  if (PUBLIC_NAMESPACES.includes(namespace)) return 'public';
  return SCREEN_NAMESPACES.find((screen) => screen === namespace) ?? 'admin';
}

/**
 * The part a catalogue file is downloaded with: its namespace's, except `<namespace>-shell.json` (admin) and
 * `<namespace>-server.json` (server: not downloaded).
 *
 * @example
 * bundleOfFile('locales/en/system.json'); // 'system'
 * bundleOfFile('locales/en/system-shell.json'); // 'admin'
 * bundleOfFile('locales/en/engine-server.json'); // 'server'
 */
export function bundleOfFile(file: string): MessageBundle {
  const namespace = namespaceOfFile(file);
  if (/-server\.json$/.test(file)) return 'server';
  if (/-shell\.json$/.test(file) && bundleOfNamespace(namespace) !== 'public') return 'admin';
  return bundleOfNamespace(namespace);
}
