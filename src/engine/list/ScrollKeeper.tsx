import { useEffect, useRef } from 'react';
import { useListContext, useStore } from 'react-admin';

const SAVE_DELAY_MS = 150;

/**
 * Keeps a list's window scroll position in the store and restores it once the rows are on screen. (react-admin's
 * own RestoreScrollPosition restores on mount, before a list that is still loading is tall enough to scroll.)
 */
export function ScrollKeeper({ storeKey }: { storeKey: string }) {
  const { isPending } = useListContext();
  const [position, setPosition] = useStore<number>(storeKey, 0);
  const isRestored = useRef(false);

  useEffect(() => {
    if (isPending || isRestored.current) return;
    isRestored.current = true;
    if (position > 0) window.scrollTo(0, position);
    // Restore once per visit, with the position the visit started with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isPending]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setPosition(window.scrollY), SAVE_DELAY_MS);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
    };
  }, [setPosition]);

  return null;
}
