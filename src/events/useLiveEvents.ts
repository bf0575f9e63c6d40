import { useEffect, useRef } from 'react';
import { subscribeLive, type LiveEvent } from './eventStream.ts';

/**
 * Calls `onEvent` for every live event while the component is mounted (one shared stream per tab).
 *
 * @example
 * useLiveEvents((event) => { if (event.type === 'monitor') setFigures(event.data as Figures); });
 */
export function useLiveEvents(onEvent: (event: LiveEvent) => void, isEnabled = true): void {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  useEffect(() => {
    if (!isEnabled) return undefined;
    return subscribeLive((event) => handler.current(event));
  }, [isEnabled]);
}
