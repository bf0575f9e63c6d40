import { useEffect, useState } from 'react';
import { httpClient } from '../providers/httpClient.ts';

/** One record `GET v1/search` found. */
export interface SearchHit {
  resource: string;
  id: string;
  label: string;
  sublabel: string | null;
}

/** Wait this long after the last keystroke before asking the server. */
export const SEARCH_DEBOUNCE_MS = 200;
/** The server refuses longer text (422); the palette does not send it. */
export const SEARCH_MAX_TEXT = 100;

/**
 * Records matching `text` (`GET v1/search`), asked once typing pauses; a new text cancels the request in
 * flight, so an older answer never replaces a newer one. Empty text asks nothing.
 *
 * @example
 * const { hits, isSearching } = useRecordSearch(text);
 */
export function useRecordSearch(text: string): { hits: SearchHit[]; isSearching: boolean } {
  const [state, setState] = useState<{ text: string; hits: SearchHit[] }>({ text: '', hits: [] });
  const q = text.trim().slice(0, SEARCH_MAX_TEXT);
  useEffect(() => {
    if (!q) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      httpClient<SearchHit[]>('v1/search', { query: { q, limit: 10 }, signal: controller.signal }).then(
        (hits) => setState({ text: q, hits }),
        () => {
          if (!controller.signal.aborted) setState({ text: q, hits: [] });
        },
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q]);
  if (!q) return { hits: [], isSearching: false };
  return { hits: state.text === q ? state.hits : [], isSearching: state.text !== q };
}
