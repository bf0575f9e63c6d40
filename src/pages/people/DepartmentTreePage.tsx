import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import DriveFileMoveIcon from '@mui/icons-material/DriveFileMove';
import EditIcon from '@mui/icons-material/Edit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepartmentNode } from '../../../schemas/departments.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { EmptyState } from '../../components/EmptyState.tsx';
import { LoadingState } from '../../components/LoadingState.tsx';
import { httpClient } from '../../providers/httpClient.ts';
import { useCan } from '../../providers/useCan.ts';
import { DepartmentDialog, type DepartmentDraft } from './DepartmentDialog.tsx';

const TREE_KEY = ['people', 'department-tree'] as const;
const BASE = 'v1/user/departments';

/**
 * `/settings/departments`: the department tree (`GET v1/user/department/tree`) with add-child, edit, move
 * and delete on every node; buttons follow the `.create/.update/.delete` names (the server checks again).
 */
export function DepartmentTreePage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const canCreate = useCan(`${PERMISSION.usersDepartments}.create`);
  const canUpdate = useCan(`${PERMISSION.usersDepartments}.update`);
  const canDelete = useCan(`${PERMISSION.usersDepartments}.delete`);
  const [dialog, setDialog] = useState<{ title: string; draft: DepartmentDraft } | null>(null);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const { data, isPending } = useQuery({
    queryKey: TREE_KEY,
    queryFn: () => httpClient<DepartmentNode[]>('v1/user/department/tree'),
  });
  const flat = flatten(data ?? []);

  const refresh = () => client.invalidateQueries({ queryKey: TREE_KEY });
  const save = async (draft: DepartmentDraft) => {
    const { id, ...body } = draft;
    await httpClient(id ? `${BASE}/${id}` : BASE, { method: id ? 'PATCH' : 'POST', body });
    setDialog(null);
    setNotice({ severity: 'success', text: t('settings.people.saved') });
    await refresh();
  };
  const remove = async (node: DepartmentNode) => {
    if (!window.confirm(t('settings.people.departments.confirm_delete', { name: node.title }))) return;
    try {
      await httpClient(`${BASE}/${node.id}`, { method: 'DELETE' });
      setNotice({ severity: 'success', text: t('settings.people.departments.deleted') });
      await refresh();
    } catch (error) {
      setNotice({ severity: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  };
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
  });

  const renderNode = (node: DepartmentNode, depth: number) => (
    <Box component="li" key={node.id} sx={{ listStyle: 'none' }}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ pl: depth * 3, py: 0.5 }}>
        <Typography sx={{ flexGrow: 1, opacity: node.state ? 1 : 0.6 }}>{node.title}</Typography>
        {node.state ? null : <Chip size="small" label={t('settings.people.disabled')} />}
        {canCreate ? (
          <Tooltip title={t('settings.people.departments.add_child')}>
            <IconButton
              size="small"
              aria-label={`${t('settings.people.departments.add_child')}: ${node.title}`}
              onClick={() =>
                open(t('settings.people.departments.add_child'), {
                  name: '',
                  parent_id: node.id,
                  sort: 0,
                  state: true,
                })
              }
            >
              <AddIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
        {canUpdate ? (
          <>
            <Tooltip title={t('settings.people.departments.edit')}>
              <IconButton
                size="small"
                aria-label={`${t('settings.people.departments.edit')}: ${node.title}`}
                onClick={() => open(t('settings.people.departments.edit'), draftOf(node))}
              >
                <EditIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('settings.people.departments.move')}>
              <IconButton
                size="small"
                aria-label={`${t('settings.people.departments.move')}: ${node.title}`}
                onClick={() => open(t('settings.people.departments.move'), draftOf(node))}
              >
                <DriveFileMoveIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          </>
        ) : null}
        {canDelete ? (
          <Tooltip title={t('settings.people.departments.delete')}>
            <IconButton
              size="small"
              aria-label={`${t('settings.people.departments.delete')}: ${node.title}`}
              onClick={() => void remove(node)}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        ) : null}
      </Stack>
      {node.children.length ? (
        <Box component="ul" sx={{ m: 0, p: 0 }}>
          {node.children.map((child) => renderNode(child, depth + 1))}
        </Box>
      ) : null}
    </Box>
  );

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" alignItems="center" sx={{ mb: 2 }}>
        <span style={{ flexGrow: 1 }} />
        {canCreate ? (
          <Button
            startIcon={<AddIcon />}
            variant="contained"
            onClick={() =>
              open(t('settings.people.departments.add_root'), {
                name: '',
                parent_id: '0',
                sort: 0,
                state: true,
              })
            }
          >
            {t('settings.people.departments.add_root')}
          </Button>
        ) : null}
      </Stack>
      {notice ? (
        <Alert severity={notice.severity} sx={{ mb: 2 }} onClose={() => setNotice(null)}>
          {notice.text}
        </Alert>
      ) : null}
      {isPending ? <LoadingState /> : null}
      {!isPending && flat.length === 0 ? <EmptyState title={t('settings.people.departments.empty')} /> : null}
      <Box component="ul" aria-label={t('app.menu.departments')} sx={{ m: 0, p: 0 }}>
        {(data ?? []).map((node) => renderNode(node, 0))}
      </Box>
      {dialog ? (
        <DepartmentDialog
          title={dialog.title}
          initial={dialog.draft}
          parents={flat.filter((n) => n.id !== dialog.draft.id).map((n) => ({ id: n.id, label: n.label }))}
          onSave={save}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </Paper>
  );
}

/** Every node with an indented label, in tree order (the superior choices). */
function flatten(nodes: DepartmentNode[], depth = 0): { id: string; label: string }[] {
  return nodes.flatMap((n) => [
    { id: n.id, label: `${'\u2003'.repeat(depth)}${n.title}` },
    ...flatten(n.children, depth + 1),
  ]);
}
