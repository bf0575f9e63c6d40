import { useMemo, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { NavigationProvider } from './navigation.tsx';
import type { NavigateOptions, Navigation } from './navigation.tsx';

const listeners = new Set<() => void>();

/**
 * The signed-out start's router: the browser's history API, for the few public pages (src/PublicApp.tsx),
 * so the sign-in page does not download react-router. History entries carry react-router's own state
 * (`{ usr, key, idx }`), so the data router that takes over later reads them as its own.
 *
 * @example
 * <HistoryNavigation><PublicRoutes /></HistoryNavigation>
 */
export function HistoryNavigation({ children }: { children: ReactNode }) {
  const address = useSyncExternalStore(subscribe, currentAddress);
  const value = useMemo<Navigation>(() => {
    const url = new URL(address, window.location.origin);
    return { location: { pathname: url.pathname, search: url.search }, navigate };
  }, [address]);
  return <NavigationProvider value={value}>{children}</NavigationProvider>;
}

function navigate(to: string, { replace = false }: NavigateOptions = {}): void {
  const previous = (window.history.state as { idx?: unknown } | null)?.idx;
  const index = typeof previous === 'number' ? previous : 0;
  const state = { usr: null, key: Math.random().toString(36).slice(2, 10), idx: replace ? index : index + 1 };
  if (replace) window.history.replaceState(state, '', to);
  else window.history.pushState(state, '', to);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

function currentAddress(): string {
  return window.location.pathname + window.location.search;
}
