import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepartmentNode } from '../../../schemas/departments.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { httpClient } from '../../providers/httpClient.ts';
import { useCan } from '../../providers/useCan.ts';
import type { DepartmentDraft } from './DepartmentDialog.tsx';

export type { DepartmentNode };

const TREE_KEY = ['people', 'department-tree'] as const;
const BASE = 'v1/user/departments';

/**
 * Everything the department tree page loads and does (the controller; DepartmentTreePage only renders):
 * the tree, what the user may do (`.create/.update/.delete`; the server checks again), the add/edit/move
 * dialog, delete after confirming, and the notice of the last change.
 *
 * @example
 * const tree = useDepartmentTree(); tree.openAddChild(node);
 */
export function useDepartmentTree() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canCreate = useCan(`${PERMISSION.usersDepartments}.create`);
  const canUpdate = useCan(`${PERMISSION.usersDepartments}.update`);
  const canDelete = useCan(`${PERMISSION.usersDepartments}.delete`);
  const [dialog, setDialog] = useState<{ title: string; draft: DepartmentDraft } | null>(null);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const { data, isPending, error } = useQuery({
    queryKey: TREE_KEY,
    queryFn: () => httpClient<DepartmentNode[]>('v1/user/department/tree'),
  });
  const flat = flatten(data ?? []);

  const refresh = () => client.invalidateQueries({ queryKey: TREE_KEY });
  const open = (title: string, draft: DepartmentDraft) => {
    setNotice(null);
    setDialog({ title, draft });
  };
  const draftOf = (node: DepartmentNode): DepartmentDraft => ({
    id: node.id,
    name: node.title,
    parent_id: node.parent_id,
    sort: node.sort,
    state: node.state,
    ...(node.version === undefined ? {} : { version: node.version }),
  });
  const newUnder = (parentId: string): DepartmentDraft => ({
    name: '',
    parent_id: parentId,
    sort: 0,
    state: true,
  });

  return {
    roots: data ?? [],
    isPending,
    /** Why the tree did not load, or null. */
    loadError: error?.message ?? null,
    isEmpty: !isPending && flat.length === 0,
    canCreate,
    canUpdate,
    canDelete,
    dialog,
    notice,
    /** The superiors the dialog offers: every department but the one being edited, indented by depth. */
    parentChoices: dialog ? flat.filter((n) => n.id !== dialog.draft.id) : [],
    openAddRoot: () => open(t('settings.people.departments.add_root'), newUnder('0')),
    openAddChild: (node: DepartmentNode) =>
      open(t('settings.people.departments.add_child'), newUnder(node.id)),
    openEdit: (node: DepartmentNode) => open(t('settings.people.departments.edit'), draftOf(node)),
    openMove: (node: DepartmentNode) => open(t('settings.people.departments.move'), draftOf(node)),
    closeDialog: () => setDialog(null),
    dismissNotice: () => setNotice(null),
    /** Creates or updates; a refusal is thrown for the dialog to show under its fields. */
    save: async (draft: DepartmentDraft) => {
      const { id, ...body } = draft;
      await httpClient(id ? `${BASE}/${id}` : BASE, { method: id ? 'PATCH' : 'POST', body });
      setDialog(null);
      setNotice({ severity: 'success', text: t('settings.people.saved') });
      await refresh();
    },
    remove: async (node: DepartmentNode) => {
      if (!window.confirm(t('settings.people.departments.confirm_delete', { name: node.title }))) return;
      try {
        await httpClient(`${BASE}/${node.id}`, { method: 'DELETE' });
        setNotice({ severity: 'success', text: t('settings.people.departments.deleted') });
        await refresh();
      } catch (error) {
        setNotice({ severity: 'error', text: error instanceof Error ? error.message : String(error) });
      }
    },
  };
}

/** Every node with an indented label, in tree order (the superior choices). */
function flatten(nodes: DepartmentNode[], depth = 0): { id: string; label: string }[] {
  return nodes.flatMap((n) => [
    { id: n.id, label: `${'\u2003'.repeat(depth)}${n.title}` },
    ...flatten(n.children, depth + 1),
  ]);
}
