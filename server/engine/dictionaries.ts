import type { Locale } from '../../locales/index.ts';
import type { Queryable } from '../db/index.ts';

/** value -> label of one dictionary's enabled entries, or null when the dictionary is unknown. */
export type DictionaryLoader = (
  db: Queryable,
  slug: string,
  locale: Locale,
) => Promise<Map<string, string> | null>;

/**
 * Hook for dictionary-backed fields (`dictionary('gender')`) in CSV export and import: until the
 * dictionaries issue lands there is no dictionaries table, so values are written as they are. That issue
 * calls `setDictionaryLoader(...)` once at start-up with a loader reading its table.
 */
let loader: DictionaryLoader = async () => null;

export function setDictionaryLoader(next: DictionaryLoader): void {
  loader = next;
}

export function loadDictionary(
  db: Queryable,
  slug: string,
  locale: Locale,
): Promise<Map<string, string> | null> {
  return loader(db, slug, locale);
}
