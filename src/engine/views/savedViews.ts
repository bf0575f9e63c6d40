import { useQuery, useQueryClient } from '@tanstack/react-query';
import { httpClient } from '../../providers/httpClient.ts';

/** A list's query as a saved view keeps it: the list query language's parameters. */
export interface ViewQuery {
  search?: string;
  searchFields?: string;
  searchJoin?: 'and' | 'or';
  orderBy?: string;
  sortedBy?: 'asc' | 'desc';
  q?: string;
}

export type Sharing = 'private' | 'roles' | 'everyone';
export type ViewDensity = 'compact' | 'comfortable';

/** A saved view as `GET v1/user/views` answers it; `pinned` and `is_default` are the caller's own choices. */
export interface SavedView {
  id: string;
  resource: string;
  name: string;
  query: ViewQuery;
  columns: string[];
  density: ViewDensity;
  shared: Sharing;
  role_ids: string[];
  pinned: boolean;
  is_default: boolean;
  owner_id: string;
  can_edit: boolean;
}

export type SavedViewInput = Omit<SavedView, 'id' | 'owner_id' | 'can_edit'>;

/** A pinned view's count, or why its query cannot be counted for this user any more. */
export type ViewCount = number | { error: 'invalid_query'; message: string };

const VIEWS = 'v1/user/views';

/** The react-query key of every saved view the user sees (one request for the lists and the menu). */
export const viewsKey = ['saved-views'] as const;
export const countsKey = ['saved-views', 'counts'] as const;

/**
 * Every saved view the user sees, over all lists: the list toolbar filters its list's, the menu the pinned.
 *
 * @example
 * const { data: views = [] } = useSavedViews();
 */
export function useSavedViews() {
  return useQuery({
    queryKey: viewsKey,
    queryFn: async ({ signal }) => {
      const views = await httpClient<SavedView[]>(VIEWS, { signal });
      return Array.isArray(views) ? views : [];
    },
    staleTime: 60_000,
  });
}

/** The pinned views' counts (`GET v1/user/views/counts`), only while some view is pinned. */
export function useViewCounts(isEnabled: boolean) {
  return useQuery({
    queryKey: countsKey,
    queryFn: ({ signal }) => httpClient<Record<string, ViewCount>>(`${VIEWS}/counts`, { signal }),
    enabled: isEnabled,
    staleTime: 30_000,
  });
}

/** Create, change and delete calls; each refreshes the views and the counts. */
export function useViewCalls() {
  const client = useQueryClient();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: viewsKey });
  };
  return {
    create: async (input: SavedViewInput) => {
      const view = await httpClient<SavedView>(VIEWS, { method: 'POST', body: input });
      await refresh();
      return view;
    },
    update: async (id: string, change: Partial<SavedViewInput>) => {
      const view = await httpClient<SavedView>(`${VIEWS}/${id}`, { method: 'PATCH', body: change });
      await refresh();
      return view;
    },
    remove: async (id: string) => {
      await httpClient(`${VIEWS}/${id}`, { method: 'DELETE' });
      await refresh();
    },
  };
}
