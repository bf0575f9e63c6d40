import { DEFAULT_LOCALE, LOCALES, type Locale } from '../locales/languages.ts';

/**
 * Dictionaries shipped in code. A resource lists the dictionaries it needs (`dictionary(priority)` on a
 * field, or `dictionaries: [priority]` on the resource) and `make:migration` seeds them into the
 * dictionaries table: `INSERT ... ON CONFLICT (slug) DO NOTHING`, so a dictionary somebody already created or
 * edited is never overwritten; entries added to the declaration later are appended by the next migration
 * unless a value is already there. At runtime the dictionary stays editable like any other.
 *
 * A label is one text, or one per language: the default language's text is the entry's `label` (what the
 * dictionary editor shows and edits), the others go to `labels` and are shown to users of that language.
 *
 * @example
 * export const priority = defineDictionary({
 *   slug: 'priority',
 *   name: { 'zh-CN': '优先级', en: 'Priority' },
 *   entries: [
 *     { value: 'high', label: { 'zh-CN': '高', en: 'High' } },
 *     { value: 'low', label: { 'zh-CN': '低', en: 'Low' } },
 *   ],
 * });
 */
export type Translated =
  string | ({ [L in typeof DEFAULT_LOCALE]: string } & Partial<Record<Locale, string>>);

export interface DictionaryDeclaration {
  /** Unique slug (`^[a-z][a-z0-9_.-]*$`), what `dictionary('<slug>')` fields name. */
  slug: string;
  name: Translated;
  entries: readonly { value: string; label: Translated; state?: boolean; memo?: string }[];
}

/** A stored entry as the dictionaries table keeps it (`labels`: the other languages' labels). */
export interface SeedEntry {
  label: string;
  value: string;
  state: boolean;
  memo: string;
  labels?: Partial<Record<Locale, string>>;
}

/** What a migration seeds: the declaration as stored rows (also kept in the resource's snapshot). */
export interface DictionarySeed {
  slug: string;
  name: string;
  data: SeedEntry[];
}

const SLUG = /^[a-z][a-z0-9_.-]*$/;

/** Checks a declaration (slug, unique values, a default-language label) and returns it. */
export function defineDictionary<D extends DictionaryDeclaration>(declaration: D): D {
  if (!SLUG.test(declaration.slug) || declaration.slug.length > 60)
    throw new Error(`Dictionary slug must match ${SLUG.source}: ${declaration.slug}`);
  const seen = new Set<string>();
  for (const e of declaration.entries) {
    if (!e.value.trim() || seen.has(e.value))
      throw new Error(`Dictionary "${declaration.slug}": empty or repeated value "${e.value}"`);
    seen.add(e.value);
    if (!defaultText(e.label).trim())
      throw new Error(`Dictionary "${declaration.slug}": entry "${e.value}" has no ${DEFAULT_LOCALE} label`);
  }
  return declaration;
}

function defaultText(text: Translated): string {
  return typeof text === 'string' ? text : text[DEFAULT_LOCALE];
}

/** The rows a declaration seeds: the default language's label in `label`, the others in `labels`. */
export function seedOf(d: DictionaryDeclaration): DictionarySeed {
  return {
    slug: d.slug,
    name: defaultText(d.name),
    data: d.entries.map((e) => {
      const others =
        typeof e.label === 'string'
          ? {}
          : Object.fromEntries(
              LOCALES.filter((l) => l !== DEFAULT_LOCALE && (e.label as Record<string, string>)[l]).map(
                (l) => [l, (e.label as Record<string, string>)[l]!],
              ),
            );
      return {
        label: defaultText(e.label),
        value: e.value,
        state: e.state ?? true,
        memo: e.memo ?? '',
        ...(Object.keys(others).length ? { labels: others } : {}),
      };
    }),
  };
}

/** An entry's label in `locale`: its translation when it has one, else its own label. */
export function entryLabel(
  entry: { label: string; labels?: Partial<Record<string, unknown>> },
  locale: string,
) {
  const translated = entry.labels?.[locale];
  return typeof translated === 'string' && translated.trim() ? translated : entry.label;
}
