/**
 * The supported languages and how the client groups the catalogues into downloads, without importing any
 * catalogue: the client's start-up code and vite.config.ts read this, the server reads locales/index.ts.
 */
export const LOCALES = ['zh-CN', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

export type Catalog = Record<string, unknown>;

/**
 * The client downloads a language's catalogues in two parts: `public` (what the sign-in, register, reset
 * and error pages show) at start-up, `admin` (react-admin's `ra` and the admin areas' namespaces) with the
 * admin shell. A namespace not listed here is an admin one.
 */
export type MessageBundle = 'public' | 'admin';
export const PUBLIC_NAMESPACES: readonly string[] = ['app', 'auth', 'errors', 'validation'];

/**
 * The namespace of a catalogue file: `locales/en/resources-people.json` -> `resources` (the resources*.json
 * files all feed `resources.<name>`).
 */
export function namespaceOfFile(file: string): string {
  const base = file.replace(/^.*\//, '').replace(/\.json$/, '');
  return base.split('-')[0] ?? base;
}

export function bundleOfNamespace(namespace: string): MessageBundle {
  return PUBLIC_NAMESPACES.includes(namespace) ? 'public' : 'admin';
}
