import { useSyncExternalStore } from 'react';

/**
 * What the layout shell knows about the page beyond its route: the page's title (for `document.title`, set
 * by the page header) and the representation of the record an edit or show page has loaded (for its
 * breadcrumb), keyed `<resource>/<id>` so a label never outlives its record.
 */
interface PageState {
  title: string | null;
  records: Record<string, string>;
}

let state: PageState = { title: null, records: {} };
const listeners = new Set<() => void>();

function update(next: PageState): void {
  state = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function setPageTitle(title: string | null): void {
  if (state.title !== title) update({ ...state, title });
}

export function setRecordLabel(resource: string, id: string, label: string): void {
  const key = `${resource}/${id}`;
  if (state.records[key] !== label) update({ ...state, records: { ...state.records, [key]: label } });
}

export function usePageTitle(): string | null {
  return useSyncExternalStore(subscribe, () => state.title);
}

export function useRecordLabel(resource: string | undefined, id: string | undefined): string | null {
  return useSyncExternalStore(subscribe, () =>
    resource && id ? (state.records[`${resource}/${id}`] ?? null) : null,
  );
}
