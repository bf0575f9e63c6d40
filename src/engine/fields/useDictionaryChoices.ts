import { useQuery } from '@tanstack/react-query';
import { useLocaleState } from 'react-admin';
import { httpClient } from '../../providers/httpClient.ts';
import type { Choice } from './useEnumChoices.ts';

interface DictionaryOptions {
  slug: string;
  data: { label: string; value: string }[];
}

/** Where dictionary types live (API contract, Collections). */
export const DICTIONARY_ENDPOINT = 'v1/dictionary/types';
/** The enabled entries of one dictionary, readable by any staff member (not only dictionary editors). */
export const DICTIONARY_OPTIONS_ENDPOINT = 'v1/dictionary/options';

/**
 * The enabled entries of the dictionary `slug` as select choices. Until the dictionaries module answers (or
 * when the slug is unknown) the list is empty and dictionary inputs fall back to free text.
 *
 * @example
 * const { choices, isPending } = useDictionaryChoices('gender');
 */
export function useDictionaryChoices(slug: string): { choices: Choice[]; isPending: boolean } {
  // Labels are translated per language (the server answers in the Accept-Language one): one cache per locale.
  const [locale] = useLocaleState();
  const { data, isPending } = useQuery({
    queryKey: ['engine', 'dictionary', slug, locale],
    queryFn: () => fetchDictionary(slug),
    staleTime: 5 * 60_000,
    retry: false,
  });
  return { choices: data ?? [], isPending };
}

async function fetchDictionary(slug: string): Promise<Choice[]> {
  try {
    const options = await httpClient<DictionaryOptions>(
      `${DICTIONARY_OPTIONS_ENDPOINT}/${encodeURIComponent(slug)}`,
    );
    return options.data.map((entry) => ({ id: entry.value, name: entry.label }));
  } catch {
    return [];
  }
}
