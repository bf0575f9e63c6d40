import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { THEME_KEY, useThemeMode } from './preferences.ts';

/** The browser's `prefers-color-scheme: dark` query, switchable like an OS setting (jsdom has no matchMedia). */
function systemScheme(initial: 'light' | 'dark') {
  const listeners = new Set<() => void>();
  let dark = initial === 'dark';
  const query = {
    get matches() {
      return dark;
    },
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  };
  window.matchMedia = ((media: string) =>
    media === query.media
      ? query
      : { matches: false, addEventListener() {}, removeEventListener() {} }) as never;
  return {
    set(scheme: 'light' | 'dark') {
      dark = scheme === 'dark';
      act(() => listeners.forEach((listener) => listener()));
    },
    listening: () => listeners.size,
  };
}

function Mode() {
  const [mode, setMode] = useThemeMode();
  return (
    <button type="button" onClick={() => setMode(mode === 'dark' ? 'light' : 'dark')}>
      {mode}
    </button>
  );
}

describe('the theme preference', () => {
  const original = window.matchMedia;
  beforeEach(() => localStorage.removeItem(THEME_KEY));
  afterEach(() => {
    window.matchMedia = original;
    localStorage.removeItem(THEME_KEY);
  });

  it('follows the system scheme until the user picks one, and the pick then stays', () => {
    const system = systemScheme('dark');
    const { unmount } = render(<Mode />);
    expect(screen.getByRole('button').textContent).toBe('dark');
    system.set('light');
    expect(screen.getByRole('button').textContent).toBe('light');
    system.set('dark');
    expect(screen.getByRole('button').textContent).toBe('dark');

    act(() => screen.getByRole('button').click());
    expect(screen.getByRole('button').textContent).toBe('light');
    expect(localStorage.getItem(THEME_KEY)).toBe('light');
    system.set('dark');
    expect(screen.getByRole('button').textContent).toBe('light');

    unmount();
    expect(system.listening()).toBe(0);
  });

  it('starts from a stored choice whatever the system says', () => {
    localStorage.setItem(THEME_KEY, 'dark');
    systemScheme('light');
    render(<Mode />);
    expect(screen.getByRole('button').textContent).toBe('dark');
  });

  it('is light where the browser cannot tell', () => {
    window.matchMedia = undefined as never;
    render(<Mode />);
    expect(screen.getByRole('button').textContent).toBe('light');
  });
});
