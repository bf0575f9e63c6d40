import { createContext, useContext, useEffect, useMemo } from 'react';
import type { AnchorHTMLAttributes, MouseEvent, Ref } from 'react';

/** Where the app is: the address's path and query string (`?a=1`, or empty). */
export interface NavLocation {
  pathname: string;
  search: string;
}

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

/** The app's router as the pages shared by the public and the full app see it. */
export interface Navigation {
  location: NavLocation;
  navigate: (to: string, options?: NavigateOptions) => void;
}

const NavigationContext = createContext<Navigation | null>(null);

/**
 * Gives the pages below it their router: `HistoryNavigation` in the signed-out start (src/PublicApp.tsx, no
 * react-router on the sign-in page), `RouterNavigation` under react-router (the full app, tests).
 */
export const NavigationProvider = NavigationContext.Provider;

/**
 * The current location and a `navigate` to absolute paths, under either router.
 *
 * @example
 * const { location, navigate } = useNavigation();
 * navigate('/dashboard', { replace: true });
 */
export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('useNavigation() needs a NavigationProvider above it');
  return navigation;
}

/** The query string of the current address, parsed (a new object only when the query string changes). */
export function useSearchParams(): URLSearchParams {
  const { search } = useNavigation().location;
  return useMemo(() => new URLSearchParams(search), [search]);
}

export interface AppLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  /** An absolute path inside the app, with its query string. */
  to: string;
  replace?: boolean;
  ref?: Ref<HTMLAnchorElement>;
}

/**
 * A link inside the app: a real `<a href>` (open in a new tab works) that a plain click follows without
 * reloading the page. Usable as MUI's `component`.
 *
 * @example
 * <Link component={AppLink} to="/register">{t('auth.login.to_register')}</Link>
 */
export function AppLink({ to, replace = false, onClick, ref, children, ...rest }: AppLinkProps) {
  const { navigate } = useNavigation();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || isModified(event)) return;
    if (rest.target && rest.target !== '_self') return;
    event.preventDefault();
    navigate(to, { replace });
  };
  return (
    <a {...rest} ref={ref} href={to} onClick={follow}>
      {children}
    </a>
  );
}

/** Moves to `to` (replacing the current entry) once rendered. */
export function Redirect({ to }: { to: string }) {
  const { navigate } = useNavigation();
  useEffect(() => navigate(to, { replace: true }), [navigate, to]);
  return null;
}

function isModified(event: MouseEvent): boolean {
  return event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
}
