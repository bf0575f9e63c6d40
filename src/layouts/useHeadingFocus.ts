import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { MAIN_CONTENT_ID } from './SkipLink.tsx';

/** Where the focus is left alone: an open dialog, modal or not. */
const IN_A_DIALOG = '[role="dialog"], [role="alertdialog"], [aria-modal="true"]';

/** How long a new page may take to show its heading (a lazy screen's chunk) before focus stays put. */
const WAIT_MS = 10_000;

/**
 * Moves the keyboard focus to the new page's `<h1>` after each navigation to another path (not on the first
 * page load, and not when only the query changes, e.g. a list's filters), so a keyboard or screen reader user
 * starts on the page just opened instead of in the old list. A page whose heading comes later (a lazy
 * screen) is watched until it appears. Focus inside a dialog stays there: a user who opened the command
 * palette while the page was still loading keeps typing into it (the dialog would otherwise take the focus
 * back from the heading onto itself, away from its text box).
 *
 * @example
 * useHeadingFocus(); // in a layout that renders <main id={MAIN_CONTENT_ID}>
 */
export function useHeadingFocus(): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const main = document.getElementById(MAIN_CONTENT_ID);
    if (!main) return;
    let done = false;
    const focusHeading = () => {
      const heading = main.querySelector<HTMLElement>('h1');
      if (!heading || done) return Boolean(heading);
      done = true;
      if (document.activeElement?.closest(IN_A_DIALOG)) return true;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
      return true;
    };
    // After this frame: a closing drawer hands focus back to its button first, and must not win.
    const frame = requestAnimationFrame(() => {
      if (focusHeading()) return;
      observer.observe(main, { childList: true, subtree: true });
    });
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    const timer = setTimeout(() => observer.disconnect(), WAIT_MS);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      observer.disconnect();
      clearTimeout(timer);
    };
  }, [pathname]);
}
