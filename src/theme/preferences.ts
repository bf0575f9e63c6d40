import { useSyncExternalStore } from 'react';

export type ThemeMode = 'light' | 'dark';

/** A value kept in localStorage that components can subscribe to. */
interface Preference<T> {
  get: () => T;
  set: (value: T) => void;
  subscribe: (listener: () => void) => () => void;
}

function createPreference<T extends string>(key: string, allowed: readonly T[], fallback: T): Preference<T> {
  const listeners = new Set<() => void>();
  const read = (): T => {
    try {
      const value = localStorage.getItem(key);
      return allowed.includes(value as T) ? (value as T) : fallback;
    } catch {
      return fallback;
    }
  };
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
      return () => listeners.delete(listener);
    },
  };
}

export const THEME_KEY = 'theme';
export const SIDEBAR_KEY = 'sidebar';

export const themePreference = createPreference<ThemeMode>(THEME_KEY, ['light', 'dark'], 'light');
export const sidebarPreference = createPreference<'open' | 'collapsed'>(
  SIDEBAR_KEY,
  ['open', 'collapsed'],
  'open',
);

/** The theme mode and its setter, persisted in localStorage under `theme`. */
export function useThemeMode(): [ThemeMode, (mode: ThemeMode) => void] {
  const mode = useSyncExternalStore(themePreference.subscribe, themePreference.get);
  return [mode, themePreference.set];
}

/** Whether the side menu is collapsed, persisted in localStorage under `sidebar`. */
export function useSidebarCollapsed(): [boolean, (collapsed: boolean) => void] {
  const value = useSyncExternalStore(sidebarPreference.subscribe, sidebarPreference.get);
  return [value === 'collapsed', (collapsed) => sidebarPreference.set(collapsed ? 'collapsed' : 'open')];
}
