import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { RecordEvent } from './eventStream.ts';
import { useLiveEvents } from './useLiveEvents.ts';

/** Bursts of changes (an import, a bulk delete) refetch once. */
const DEBOUNCE_MS = 300;
const LIST_QUERIES = ['getList', 'getMany', 'getManyReference'] as const;

/**
 * Refetches a resource's lists when a record of it changes on the server (any user, any server), and all of
 * them after a `reset` (events were missed). The edit page's own record query is left alone: the
 * ChangedUnderneathBanner handles that, so unsaved input is never overwritten.
 *
 * @example
 * useLiveList('staff');
 */
export function useLiveList(resource: string): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  useLiveEvents((event) => {
    const isMine =
      (event.type === 'record' && (event.data as RecordEvent).resource === resource) ||
      event.type === 'reset';
    if (!isMine) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      for (const kind of LIST_QUERIES) void queryClient.invalidateQueries({ queryKey: [resource, kind] });
    }, DEBOUNCE_MS);
  });
}
