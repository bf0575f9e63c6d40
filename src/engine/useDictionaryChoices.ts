import { useQuery } from '@tanstack/react-query';
import { httpClient } from '../providers/httpClient.ts';
import type { Choice } from './useEnumChoices.ts';

interface DictionaryType {
  slug: string;
  data?: { label: string; value: string; state?: boolean | number }[];
}

/** Where dictionary types live (API contract, Collections). */
export const DICTIONARY_ENDPOINT = 'v1/dictionary/types';

/**
 * The enabled entries of the dictionary `slug` as select choices. Until the dictionaries module answers (or
 * when the slug is unknown) the list is empty and dictionary inputs fall back to free text.
 *
 * @example
 * const { choices, isPending } = useDictionaryChoices('gender');
 */
export function useDictionaryChoices(slug: string): { choices: Choice[]; isPending: boolean } {
  const { data, isPending } = useQuery({
    queryKey: ['engine', 'dictionary', slug],
    queryFn: () => fetchDictionary(slug),
    staleTime: 5 * 60_000,
    retry: false,
  });
  return { choices: data ?? [], isPending };
}

async function fetchDictionary(slug: string): Promise<Choice[]> {
  try {
    const page = await httpClient<{ data: DictionaryType[] }>(DICTIONARY_ENDPOINT, {
      query: { search: `slug:${slug}`, searchFields: 'slug:=', size: 1 },
    });
    const entries = page.data.find((type) => type.slug === slug)?.data ?? [];
    return entries
      .filter((entry) => entry.state === undefined || entry.state === true || entry.state === 1)
      .map((entry) => ({ id: entry.value, name: entry.label }));
  } catch {
    return [];
  }
}
