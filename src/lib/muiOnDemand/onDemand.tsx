import { useTheme } from '@mui/material/styles';
import { forwardRef, useEffect, useReducer } from 'react';
import type { ComponentType, ForwardRefExoticComponent, PropsWithoutRef, Ref, RefAttributes } from 'react';

/**
 * MUI components that render nothing until a user opens them (a menu, a popover, a dialog, a tooltip's
 * popper), loaded the first time one opens (issue 14 item 7). scripts/lib/vite-lean-deps.ts gives the modules
 * beside this one to every importer of such a component in the production build; see that plugin for which
 * components and why.
 *
 * `onDemand` makes the stand-in: a component that, while the real one would render nothing (`shows` is
 * false for its props), renders nothing too; on the first render where the real one would show, it
 * downloads the real component and from then on renders it with the same props and ref. Once downloaded,
 * every instance renders the real component, open or closed, so closing transitions, focus restoring and
 * the like are the real component's. A failed download is not kept: while the component should show, the
 * user's next click or key press (opening it again), or the browser coming back online, downloads again.
 *
 * The downloads start ahead too, all of them at once, on the page's first pointer move over a control or
 * first key press (`prefetchOnIntent`; a stand-in arriving later in a lazy chunk, at once): the user is
 * about to open one, and the real component is usually there by the time they do.
 */
export function onDemand<P extends object, R = unknown>(options: {
  /** The component's name, for React's developer tools. */
  name: string;
  /** The names whose theme `defaultProps` apply to the real component, outermost first ('MuiDialog', 'MuiModal'). */
  themeNames: readonly string[];
  /** Downloads the real component's module. */
  load: () => Promise<{ default: ComponentType<P & RefAttributes<R>> }>;
  /** Whether the real component would render something for these props (theme defaults applied). */
  shows: (props: P) => boolean;
}): OnDemandComponent<P, R> {
  const { name, themeNames, load, shows } = options;
  let Real: ComponentType<P & RefAttributes<R>> | undefined;
  let loading: Promise<ComponentType<P & RefAttributes<R>>> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (module) => (Real = module.default),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));

  const OnDemand = forwardRef<R, P>(function OnDemand(props, ref) {
    const theme = useTheme();
    const show =
      !Real && shows(withThemeDefaults(props as P, theme.components as ThemeComponents, themeNames));
    // Counts this instance's downloads that ended: a render after each (the real one, or a new try).
    const [attempt, settled] = useReducer((n: number) => n + 1, 0);
    useEffect(() => {
      if (!show) return undefined;
      let current = true;
      let stopWaiting: (() => void) | undefined;
      preload().then(
        () => current && settled(),
        // Not kept (see preload): the user's next click or key press (opening again) or the network coming
        // back downloads again.
        () => {
          if (current) stopWaiting = onNextAttempt(settled);
        },
      );
      return () => {
        current = false;
        stopWaiting?.();
      };
    }, [show, attempt]);
    return Real ? <Real {...(props as P)} ref={ref as Ref<R>} /> : null;
  });
  OnDemand.displayName = `OnDemand(${name})`;
  const prefetch = () => void preload().catch(() => undefined);
  // A stand-in in a chunk that arrives after the user's first move downloads at once.
  if (intended) prefetch();
  else intentPreloads.add(prefetch);
  return Object.assign(OnDemand, { preload });
}

export type OnDemandComponent<P, R> = ForwardRefExoticComponent<PropsWithoutRef<P> & RefAttributes<R>> & {
  /** Downloads the real component (once however often asked); rejects if the download fails. */
  preload: () => Promise<unknown>;
};

/** The rule of MUI's Popper, Modal and the components built on Modal: nothing unless open or kept mounted. */
export function openOrKeptMounted(props: { open?: boolean; keepMounted?: boolean }): boolean {
  return Boolean(props.open || props.keepMounted);
}

/**
 * `props` with the theme's `defaultProps` for `names` filled in where a prop is not given, the way each MUI
 * component resolves its own (`useDefaultProps`) and passes them on to the next (Dialog to Modal).
 */
type ThemeComponents = Partial<Record<string, { defaultProps?: object }>> | undefined;

function withThemeDefaults<P extends object>(
  props: P,
  components: ThemeComponents,
  names: readonly string[],
): P {
  let resolved = props;
  for (const name of names) {
    const defaults = components?.[name]?.defaultProps;
    if (!defaults) continue;
    resolved = { ...resolved };
    for (const [key, value] of Object.entries(defaults)) {
      if ((resolved as Record<string, unknown>)[key] === undefined)
        (resolved as Record<string, unknown>)[key] = value;
    }
  }
  return resolved;
}

/** Calls `retry` once, on the next pointer press or key press on the page or when the browser goes online. */
function onNextAttempt(retry: () => void): () => void {
  const options = { capture: true, passive: true } as const;
  const stop = () => {
    document.removeEventListener('pointerdown', fire, options);
    document.removeEventListener('keydown', fire, options);
    window.removeEventListener('online', fire);
  };
  function fire() {
    stop();
    retry();
  }
  document.addEventListener('pointerdown', fire, options);
  document.addEventListener('keydown', fire, options);
  window.addEventListener('online', fire);
  return stop;
}

/** Each on-demand component's download, started on the first sign that the user is about to open one. */
const intentPreloads = new Set<() => void>();
/** Whether that sign was seen. */
let intended = false;

/**
 * The first pointer move over a control (a button, a link, an input, anything focusable) or the first key
 * press starts every on-demand download. Both are user actions: a page nobody touches downloads nothing more.
 */
function prefetchOnIntent(): void {
  if (typeof document === 'undefined') return;
  const CONTROL =
    'button, a[href], input, select, textarea, [tabindex], [aria-haspopup], [aria-label], ' +
    '[role="button"], [role="combobox"], [role="checkbox"], [role="menuitem"], [role="tab"]';
  const options = { capture: true, passive: true } as const;
  const onIntent = (event: Event) => {
    if (event.type === 'pointerover' && !(event.target instanceof Element && event.target.closest(CONTROL)))
      return;
    document.removeEventListener('pointerover', onIntent, options);
    document.removeEventListener('keydown', onIntent, options);
    intended = true;
    for (const preload of intentPreloads) preload();
    intentPreloads.clear();
  };
  document.addEventListener('pointerover', onIntent, options);
  document.addEventListener('keydown', onIntent, options);
}
prefetchOnIntent();
