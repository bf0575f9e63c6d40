import BookmarksIcon from '@mui/icons-material/Bookmarks';
import Button from '@mui/material/Button';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { useSavedViews, type SavedView } from './savedViews.ts';
import { useApplyView } from './useApplyView.ts';

/**
 * The menu and its dialogs (ViewsMenu.tsx) load when the button is first pointed at, focused or pressed: a
 * list shows the button, not the menu (issue 37 item 6). Fetching the menu fetches the save / edit dialog
 * too, so neither click waits for the network.
 */
const loadViewsMenu = () => import('./ViewsMenu.tsx');
const ViewsMenu = lazy(() => loadViewsMenu().then((m) => ({ default: m.ViewsMenu })));
const prefetchViewsMenu = () =>
  void loadViewsMenu()
    .then((m) => m.prefetchViewDialog())
    .catch(() => undefined);

/** The URL parameter a pinned menu entry opens its view with (`/settings/staff?view=12`). */
export const VIEW_PARAM = 'view';

/**
 * The list toolbar's saved views: a "Views" menu that applies one of the user's views (its own and those
 * shared with it) to the list, saves the current filters, sort, columns and density under a name (private,
 * shared with roles or with everyone), and renames, shares, duplicates, pins, makes default or deletes the
 * view applied last. The user's default view is applied when the list opens without a query in the URL; a
 * pinned menu entry opens the list with `?view=<id>`.
 */
export function ViewsButton({ resource, preferenceKey }: { resource: Resource; preferenceKey: string }) {
  const translate = useTranslate();
  const menuId = useId();
  const { data: all = [] } = useSavedViews();
  const views = all.filter((view) => view.resource === resource.name);
  const { current, apply } = useApplyView(resource, preferenceKey);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Once opened, the menu stays mounted: a dialog it opened outlives the menu.
  const [isMenuWanted, setIsMenuWanted] = useState(false);
  const [activeId, setActiveId] = useState<string | null>(null);
  const active = views.find((view) => view.id === activeId) ?? null;
  useOpeningView(views, (view) => {
    apply(view);
    setActiveId(view.id);
  });

  return (
    <>
      <Button
        size="small"
        startIcon={<BookmarksIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => {
          setAnchor(event.currentTarget);
          setIsMenuWanted(true);
        }}
        onMouseEnter={prefetchViewsMenu}
        onFocus={prefetchViewsMenu}
        sx={{ lineHeight: 1.5 }}
      >
        {active
          ? translate('engine.views.button_named', { name: active.name })
          : translate('engine.views.button')}
      </Button>
      {isMenuWanted ? (
        // Nothing in its place while it loads (prefetched on hover and focus): the menu opens over the page.
        <Suspense fallback={null}>
          <ViewsMenu
            resource={resource}
            menuId={menuId}
            anchor={anchor}
            onClose={() => setAnchor(null)}
            views={views}
            activeId={activeId}
            onActive={setActiveId}
            apply={apply}
            current={current}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * Applies, once the views have arrived, the view a pinned menu entry names (`?view=<id>`, also when the list
 * is already open) or else, when the list opened without a query in the URL, the user's default view of this
 * list. The opening URL is read as the list opened, before react-admin writes its own parameters into it.
 */
function useOpeningView(views: SavedView[], apply: (view: SavedView) => void): void {
  const { search } = useLocation();
  const opening = useRef(search);
  const handled = useRef<string | null>(null);
  const isDefaultDone = useRef(false);
  const { isSuccess } = useSavedViews();
  useEffect(() => {
    if (!isSuccess) return;
    const named = new URLSearchParams(search).get(VIEW_PARAM);
    if (!named) handled.current = null;
    if (named && named !== handled.current) {
      handled.current = named;
      isDefaultDone.current = true;
      const view = views.find((v) => v.id === named);
      if (view) apply(view);
      return;
    }
    if (isDefaultDone.current) return;
    isDefaultDone.current = true;
    const isBare = opening.current === '' || opening.current === '?';
    const view = isBare ? views.find((v) => v.is_default) : undefined;
    if (view) apply(view);
  });
}
