import SearchIcon from '@mui/icons-material/Search';
import IconButton from '@mui/material/IconButton';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

const CommandPalette = lazy(() =>
  import('./CommandPalette.tsx').then((m) => ({ default: m.CommandPalette })),
);

/** Ctrl-K, or Cmd-K on a Mac: opens the palette from anywhere in the signed-in app. */
export function isPaletteShortcut(event: KeyboardEvent): boolean {
  return (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k';
}

/**
 * The app bar's search button and the Ctrl/Cmd-K shortcut of the command palette (CommandPalette.tsx), which
 * loads on first use so a list page's bundle carries only this button. Render it once per layout's app bar;
 * the dialog returns focus where it was when it closes.
 *
 * @example
 * <Toolbar>… <PaletteButton /> <ThemeToggle /></Toolbar>
 */
export function PaletteButton() {
  const { t } = useTranslation();
  const [isOpen, setOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return;
      event.preventDefault();
      setHasOpened(true);
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const label = t('engine.palette.open');
  return (
    <>
      <IconButton
        color="inherit"
        aria-label={label}
        title={label}
        aria-keyshortcuts="Control+K Meta+K"
        onClick={() => {
          setHasOpened(true);
          setOpen(true);
        }}
      >
        <SearchIcon />
      </IconButton>
      {hasOpened ? (
        <Suspense fallback={null}>
          <CommandPalette open={isOpen} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
