import { entryLabel } from '../../resources/default-dictionaries.ts';
import type { Locale } from '../../locales/index.ts';
import type { Queryable } from '../db/index.ts';

interface StoredEntry {
  label?: unknown;
  value?: unknown;
  state?: unknown;
  labels?: Record<string, unknown>;
}

/**
 * value -> label of one dictionary's enabled entries, or null when the dictionary is unknown.
 * Dictionary-backed fields (`dictionary('gender')`) in CSV export (values written as labels) and import
 * (labels read back as values). Reads the dictionaries resource's table (`dictionary_types`, entries in the
 * `data` jsonb list); only enabled entries count. An entry's label is its `labels[locale]` translation when
 * it has one, else its `label` (resources/default-dictionaries.ts).
 */
export async function loadDictionary(
  db: Queryable,
  slug: string,
  locale: Locale,
): Promise<Map<string, string> | null> {
  const rows = await db
    .query<{ data: StoredEntry[] | string | null }>('SELECT data FROM dictionary_types WHERE slug = $1', [
      slug,
    ])
    .then(
      (result) => result.rows,
      (error: { code?: string }) => {
        // A test database built from fixture migrations only has no dictionaries table: no dictionary.
        if (error.code === '42P01') return [];
        throw error;
      },
    );
  if (rows.length === 0) return null;
  const raw = rows[0]!.data;
  const entries = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as StoredEntry[];
  const out = new Map<string, string>();
  for (const entry of entries) {
    const isEnabled = entry.state === undefined || entry.state === true || entry.state === 1;
    if (isEnabled && typeof entry.value === 'string' && typeof entry.label === 'string')
      out.set(entry.value, entryLabel({ label: entry.label, labels: entry.labels }, locale));
  }
  return out;
}
