import { splitEscaped, unescapedIndex } from '../../engine/list/query.ts';
import type { SavedView } from './schemas.ts';

type Query = SavedView['query'];

/**
 * A saved view's query without the pairs that name a field the reader may not search or sort by
 * (operations.ts `readersPart`): `search` pairs (`field:value`, split on the unescaped `;` and the first
 * unescaped `:` as the list parser splits them), `searchFields` entries and `orderBy` fields are kept or left
 * out one by one, each kept one exactly as written. A bare term stays only when every `searchFields` field
 * (where the list looks for it) stays; `sortedBy` goes when every sort field went. Example:
 * `redactQuery({ search: 'phone:138;name:Li', orderBy: 'phone;name' }, { canSearch, canSort })` with phone
 * hidden -> `{ search: 'name:Li', orderBy: 'name' }`.
 */
export function redactQuery(
  query: Query,
  { canSearch, canSort }: { canSearch: (field: string) => boolean; canSort: (field: string) => boolean },
): Query {
  const { search, searchFields, orderBy, sortedBy, ...rest } = query;
  const chosen = splitEscaped(searchFields ?? '', ';').filter((part) => part.trim() !== '');
  const chosenNames = chosen.map((part) => nameOf(part));
  const keptChosen = chosen.filter((_, i) => canSearch(chosenNames[i]!));
  const isBareKept = chosenNames.every((name) => name !== '' && canSearch(name));
  const keptSearch = splitEscaped(search ?? '', ';').filter((part) => {
    if (part.trim() === '') return false;
    const name = nameOf(part);
    return name === '' ? isBareKept : canSearch(name);
  });
  const sortFields = (orderBy ?? '').split(';').filter((f) => f.trim() !== '');
  const keptSort = sortFields.filter((f) => canSort(f.trim()));
  return {
    ...rest,
    search: joined(keptSearch),
    searchFields: joined(keptChosen),
    orderBy: joined(keptSort),
    sortedBy: sortFields.length > 0 && keptSort.length === 0 ? undefined : sortedBy,
  };
}

const joined = (parts: string[]): string | undefined => (parts.length ? parts.join(';') : undefined);

/** The field a `field:value` (or `field:condition`) part names; '' for a bare term. */
function nameOf(part: string): string {
  const colon = unescapedIndex(part, ':');
  return colon < 0 ? '' : part.slice(0, colon).trim();
}
