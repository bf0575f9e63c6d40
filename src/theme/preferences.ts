import { useSyncExternalStore } from 'react';

export type ThemeMode = 'light' | 'dark';

/** A value kept in localStorage that components can subscribe to. */
interface Preference<T> {
  get: () => T;
  set: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
}

/**
 * @param fallback the value while nothing is stored: a constant, or `{ read, watch }` for one that follows the
 * system (read now; `watch` calls back when it changes and returns how to stop).
 */
function createPreference<T extends string>(
  key: string,
  allowed: readonly T[],
  fallback: T | { read: () => T; watch: (changed: () => void) => () => void },
): Preference<T> {
  const listeners = new Set<() => void>();
  const fallbackValue = () => (typeof fallback === 'string' ? fallback : fallback.read());
  const read = (): T => {
    try {
      const value = localStorage.getItem(key);
      return allowed.includes(value as T) ? (value as T) : fallbackValue();
    } catch {
      return fallbackValue();
    }
  };
  let unwatch: (() => void) | null = null;
  return {
    get: read,
    set(value) {
      try {
        localStorage.setItem(key, value);
      } catch {
        // Not persisted (private mode); the listeners still update this page.
      }
      listeners.forEach((listener) => listener());
    },
    subscribe(listener) {
      listeners.add(listener);
      if (typeof fallback !== 'string' && !unwatch)
        unwatch = fallback.watch(() => listeners.forEach((notify) => notify()));
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && unwatch) {
          unwatch();
          unwatch = null;
        }
      };
    },
  };
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The system's colour scheme (`prefers-color-scheme`), light where the browser cannot tell. */
const systemTheme = {
  read: (): ThemeMode =>
    typeof window !== 'undefined' && window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light',
  watch(changed: () => void): () => void {
    const query = typeof window !== 'undefined' ? window.matchMedia?.(DARK_QUERY) : undefined;
    query?.addEventListener('change', changed);
    return () => query?.removeEventListener('change', changed);
  },
};

export const THEME_KEY = 'theme';
export const SIDEBAR_KEY = 'sidebar';

/** Until the user picks one with the toggle, the theme follows the system's colour scheme, live. */
export const themePreference = createPreference<ThemeMode>(THEME_KEY, ['light', 'dark'], systemTheme);
export const sidebarPreference = createPreference<'open' | 'collapsed'>(
  SIDEBAR_KEY,
  ['open', 'collapsed'],
  'open',
);

/** The theme mode and its setter, persisted in localStorage under `theme` (else the system's scheme). */
export function useThemeMode(): [ThemeMode, (mode: ThemeMode) => void] {
  const mode = useSyncExternalStore(themePreference.subscribe, themePreference.get);
  return [mode, themePreference.set];
}

/** Whether the side menu is collapsed, persisted in localStorage under `sidebar`. */
export function useSidebarCollapsed(): [boolean, (collapsed: boolean) => void] {
  const value = useSyncExternalStore(sidebarPreference.subscribe, sidebarPreference.get);
  return [value === 'collapsed', (collapsed) => sidebarPreference.set(collapsed ? 'collapsed' : 'open')];
}
