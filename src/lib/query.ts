export type SearchValue = string | number | boolean | null | undefined;

/**
 * One `search` value (or one item of an `in`/`between` list) as the contract writes it: a literal `;`, `:`,
 * `,` becomes `\;`, `\:`, `\,` and a backslash `\\` (the server undoes it after splitting).
 *
 * @example
 * escapeSearchValue('Eve:Colon;Semi'); // 'Eve\\:Colon\\;Semi'
 */
export function escapeSearchValue(value: string): string {
  return value.replace(/[\\;:,]/g, (c) => `\\${c}`);
}

/**
 * Encodes a `search` object as the contract's `field:value` pairs joined by `;`, every value escaped. Spec 5:
 * null and empty entries are dropped (0 and false are real values and are kept).
 *
 * @example
 * encodeSearch({ name: 'li', state: 1, email: '' }); // 'name:li;state:1'
 */
export function encodeSearch(search: Record<string, SearchValue | SearchValue[]>): string {
  const text = (value: SearchValue) => escapeSearchValue(String(value));
  return Object.entries(search)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .filter(([, value]) => !Array.isArray(value) || value.length > 0)
    .map(([key, value]) => `${key}:${Array.isArray(value) ? value.map(text).join(',') : text(value)}`)
    .join(';');
}

/**
 * Encodes a `searchFields` object (`field:condition`) the same way; spec 5 drops every falsy entry here.
 *
 * @example
 * encodeSearchFields({ name: 'like', state: '=', email: '' }); // 'name:like;state:='
 */
export function encodeSearchFields(fields: Record<string, string | null | undefined | false>): string {
  return Object.entries(fields)
    .filter(([, condition]) => Boolean(condition))
    .map(([key, condition]) => `${key}:${String(condition)}`)
    .join(';');
}
