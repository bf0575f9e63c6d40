import CheckIcon from '@mui/icons-material/Check';
import PushPinIcon from '@mui/icons-material/PushPin';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { lazy, Suspense, useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { useViewCalls, type SavedView } from './savedViews.ts';
import type { useApplyView } from './useApplyView.ts';
import type { ViewForm } from './ViewDialog.tsx';

/**
 * The save / edit dialog loads when it first opens: its form, radios and role picker are not needed to show
 * a list. Pointing at or focusing the Views button fetches it with this menu (ViewsButton).
 */
const loadViewDialog = () => import('./ViewDialog.tsx');
const ViewDialog = lazy(() => loadViewDialog().then((m) => ({ default: m.ViewDialog })));
export const prefetchViewDialog = () => void loadViewDialog().catch(() => undefined);

type ApplyView = ReturnType<typeof useApplyView>;

type Dialog = { kind: 'save' } | { kind: 'edit'; view: SavedView } | { kind: 'delete'; view: SavedView };

/**
 * The Views button's menu and what its entries open: apply a view, save the current list as a view, edit,
 * duplicate or delete the view applied last (its dialogs). A chunk of its own, loaded when the button is
 * first pointed at, focused or pressed (ViewsButton), then kept mounted so a dialog outlives the menu.
 */
export function ViewsMenu({
  resource,
  menuId,
  anchor,
  onClose,
  views,
  activeId,
  onActive,
  apply,
  current,
}: {
  resource: Resource;
  menuId: string;
  anchor: HTMLElement | null;
  onClose: () => void;
  views: SavedView[];
  activeId: string | null;
  /** Makes a view the one applied last (null: none). */
  onActive: (id: string | null) => void;
  /** Applies a view's filters, sort, columns and density to the list (useApplyView). */
  apply: ApplyView['apply'];
  /** The list's current filters, sort, columns and density (useApplyView). */
  current: ApplyView['current'];
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const calls = useViewCalls();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const active = views.find((view) => view.id === activeId) ?? null;

  const choose = (view: SavedView) => {
    apply(view);
    onActive(view.id);
    onClose();
  };
  const open = (next: Dialog) => {
    onClose();
    setDialog(next);
  };
  const done = (message: string) => {
    setDialog(null);
    notify(message, { type: 'info' });
  };
  const save = async (form: ViewForm) => {
    const view = await calls.create({ resource: resource.name, ...current(), ...form });
    onActive(view.id);
    done(translate('engine.views.saved', { name: view.name }));
  };
  const edit = (view: SavedView) => async (form: ViewForm) => {
    const change = view.can_edit ? form : { pinned: form.pinned, is_default: form.is_default };
    await calls.update(view.id, change);
    done(translate('engine.views.updated', { name: form.name }));
  };
  const duplicate = async (view: SavedView) => {
    onClose();
    const name = translate('engine.views.copy_of', { name: view.name }).slice(0, 100);
    const copy = await calls.create({
      ...view,
      name,
      shared: 'private',
      role_ids: [],
      pinned: false,
      is_default: false,
    });
    onActive(copy.id);
    notify(translate('engine.views.saved', { name }), { type: 'info' });
  };
  const remove = async (view: SavedView) => {
    await calls.remove(view.id);
    onActive(null);
    done(translate('engine.views.deleted', { name: view.name }));
  };

  return (
    <>
      <Menu id={menuId} anchorEl={anchor} open={Boolean(anchor)} onClose={onClose}>
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
