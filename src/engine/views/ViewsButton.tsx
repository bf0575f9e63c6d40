import BookmarksIcon from '@mui/icons-material/Bookmarks';
import CheckIcon from '@mui/icons-material/Check';
import PushPinIcon from '@mui/icons-material/PushPin';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import { useLocation } from 'react-router-dom';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { useSavedViews, useViewCalls, type SavedView } from './savedViews.ts';
import { useApplyView } from './useApplyView.ts';
import type { ViewForm } from './ViewDialog.tsx';

/**
 * The save / edit dialog loads when it first opens: its form, radios and role picker are not needed to show
 * a list (they were in the first list page's bundle). Pointing at or focusing the Views button fetches it.
 */
const loadViewDialog = () => import('./ViewDialog.tsx');
const ViewDialog = lazy(() => loadViewDialog().then((m) => ({ default: m.ViewDialog })));
const prefetchViewDialog = () => void loadViewDialog().catch(() => undefined);

/** The URL parameter a pinned menu entry opens its view with (`/settings/staff?view=12`). */
export const VIEW_PARAM = 'view';

type Dialog = { kind: 'save' } | { kind: 'edit'; view: SavedView } | { kind: 'delete'; view: SavedView };

/**
 * The list toolbar's saved views: a "Views" menu that applies one of the user's views (its own and those
 * shared with it) to the list, saves the current filters, sort, columns and density under a name (private,
 * shared with roles or with everyone), and renames, shares, duplicates, pins, makes default or deletes the
 * view applied last. The user's default view is applied when the list opens without a query in the URL; a
 * pinned menu entry opens the list with `?view=<id>`.
 */
export function ViewsButton({ resource, preferenceKey }: { resource: Resource; preferenceKey: string }) {
  const translate = useTranslate();
  const notify = useNotify();
  const menuId = useId();
  const { data: all = [] } = useSavedViews();
  const views = all.filter((view) => view.resource === resource.name);
  const calls = useViewCalls();
  const { current, apply } = useApplyView(resource, preferenceKey);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [activeId, setActiveId] = useState<string | null>(null);
  const active = views.find((view) => view.id === activeId) ?? null;
  useOpeningView(views, (view) => {
    apply(view);
    setActiveId(view.id);
  });

  const choose = (view: SavedView) => {
    apply(view);
    setActiveId(view.id);
    setAnchor(null);
  };
  const open = (next: Dialog) => {
    setAnchor(null);
    setDialog(next);
  };
  const done = (message: string) => {
    setDialog(null);
    notify(message, { type: 'info' });
  };
  const save = async (form: ViewForm) => {
    const view = await calls.create({ resource: resource.name, ...current(), ...form });
    setActiveId(view.id);
    done(translate('engine.views.saved', { name: view.name }));
  };
  const edit = (view: SavedView) => async (form: ViewForm) => {
    const change = view.can_edit ? form : { pinned: form.pinned, is_default: form.is_default };
    await calls.update(view.id, change);
    done(translate('engine.views.updated', { name: form.name }));
  };
  const duplicate = async (view: SavedView) => {
    setAnchor(null);
    const name = translate('engine.views.copy_of', { name: view.name }).slice(0, 100);
    const copy = await calls.create({
      ...view,
      name,
      shared: 'private',
      role_ids: [],
      pinned: false,
      is_default: false,
    });
    setActiveId(copy.id);
    notify(translate('engine.views.saved', { name }), { type: 'info' });
  };
  const remove = async (view: SavedView) => {
    await calls.remove(view.id);
    setActiveId(null);
    done(translate('engine.views.deleted', { name: view.name }));
  };

  return (
    <>
      <Button
        size="small"
        startIcon={<BookmarksIcon />}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? true : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        onMouseEnter={prefetchViewDialog}
        onFocus={prefetchViewDialog}
        sx={{ lineHeight: 1.5 }}
      >
        {active
          ? translate('engine.views.button_named', { name: active.name })
          : translate('engine.views.button')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {views.map((view) => (
          <MenuItem key={view.id} selected={view.id === activeId} onClick={() => choose(view)}>
            <ListItemIcon>{view.id === activeId ? <CheckIcon fontSize="small" /> : null}</ListItemIcon>
            <ListItemText
              primary={view.name}
              secondary={[
                translate(`engine.views.shared.${view.shared}`),
                view.is_default ? translate('engine.views.default') : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            />
            {view.pinned ? (
              <PushPinIcon fontSize="small" aria-label={translate('engine.views.pinned')} />
            ) : null}
          </MenuItem>
        ))}
        {views.length ? <Divider /> : null}
        <MenuItem onClick={() => open({ kind: 'save' })}>{translate('engine.views.save_current')}</MenuItem>
        {active ? (
          <MenuItem onClick={() => open({ kind: 'edit', view: active })}>
            {translate(active.can_edit ? 'engine.views.edit' : 'engine.views.my_choices', {
              name: active.name,
            })}
          </MenuItem>
        ) : null}
        {active ? (
          <MenuItem onClick={() => void duplicate(active)}>{translate('engine.views.duplicate')}</MenuItem>
        ) : null}
        {active?.can_edit ? (
          <MenuItem onClick={() => open({ kind: 'delete', view: active })}>
            {translate('engine.views.delete')}
          </MenuItem>
        ) : null}
      </Menu>
      <Suspense fallback={null}>
        {dialog?.kind === 'save' ? (
          <ViewDialog
            title={translate('engine.views.save_title')}
            initial={{ name: '', shared: 'private', role_ids: [], pinned: false, is_default: false }}
            onSubmit={save}
            onClose={() => setDialog(null)}
          />
        ) : null}
        {dialog?.kind === 'edit' ? (
          <ViewDialog
            title={translate('engine.views.edit_title', { name: dialog.view.name })}
            initial={dialog.view}
            canShare={dialog.view.can_edit}
            onSubmit={edit(dialog.view)}
            onClose={() => setDialog(null)}
          />
        ) : null}
      </Suspense>
      <Confirm
        isOpen={dialog?.kind === 'delete'}
        title={translate('engine.views.delete_title')}
        content={translate('engine.views.delete_content', {
          name: dialog?.kind === 'delete' ? dialog.view.name : '',
        })}
        onConfirm={() => (dialog?.kind === 'delete' ? void remove(dialog.view) : undefined)}
        onClose={() => setDialog(null)}
      />
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
