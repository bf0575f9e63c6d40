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
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataState } from '../../components/DataState.tsx';
import RestoreFromTrashIcon from '@mui/icons-material/RestoreFromTrash';
import { Link } from 'react-router-dom';
import { DepartmentDialog } from './DepartmentDialog.tsx';
import { useDepartmentTree, type DepartmentNode } from './useDepartmentTree.ts';
import { KeyRows } from '../../components/KeyRows.tsx';

type Tree = ReturnType<typeof useDepartmentTree>;

/**
 * `/settings/departments`: the department tree (`GET v1/user/department/tree`) with add-child, edit, move
 * and delete on every node, and the link to the departments' trash (`/settings/departments/trash`) for a
 * caller who may delete them. The view of useDepartmentTree.
 */
export function DepartmentTreePage() {
  const { t } = useTranslation();
  const tree = useDepartmentTree();

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" alignItems="center" sx={{ mb: 2 }}>
        <span style={{ flexGrow: 1 }} />
        {tree.canDelete ? (
          <Button component={Link} to="/settings/departments/trash" startIcon={<RestoreFromTrashIcon />}>
            {t('engine.trash.open')}
          </Button>
        ) : null}
        {tree.canCreate ? (
          <Button startIcon={<AddIcon />} variant="contained" onClick={tree.openAddRoot}>
            {t('settings.people.departments.add_root')}
          </Button>
        ) : null}
      </Stack>
      {tree.notice ? (
        <Alert severity={tree.notice.severity} sx={{ mb: 2 }} onClose={tree.dismissNotice}>
          {tree.notice.text}
        </Alert>
      ) : null}
      <DataState
        isPending={tree.isPending}
        error={tree.loadError}
        isEmpty={tree.isEmpty}
        loadingLabel={t('app.loading')}
        emptyLabel={t('settings.people.departments.empty')}
      >
        <KeyRows>
          <Box component="ul" aria-label={t('app.menu.departments')} sx={{ m: 0, p: 0 }}>
            {tree.roots.map((node) => (
              <DepartmentItem key={node.id} node={node} depth={0} tree={tree} />
            ))}
          </Box>
        </KeyRows>
      </DataState>
      {tree.dialog ? (
        <DepartmentDialog
          title={tree.dialog.title}
          initial={tree.dialog.draft}
          parents={tree.parentChoices}
          onSave={tree.save}
          onClose={tree.closeDialog}
        />
      ) : null}
    </Paper>
  );
}

/** One department with its actions, then its sub-departments one level deeper. */
function DepartmentItem({ node, depth, tree }: { node: DepartmentNode; depth: number; tree: Tree }) {
  const { t } = useTranslation();
  const action = (key: string, icon: ReactNode, onClick: () => void, isPrimary = false) => (
    <Tooltip title={t(`settings.people.departments.${key}`)}>
      <IconButton
        size="small"
        aria-label={`${t(`settings.people.departments.${key}`)}: ${node.title}`}
        onClick={onClick}
        data-row-primary={isPrimary || undefined}
      >
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <Box component="li" sx={{ listStyle: 'none' }}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ pl: depth * 3, py: 0.5 }} data-key-row>
        <Typography sx={{ flexGrow: 1, opacity: node.state ? 1 : 0.6 }}>{node.title}</Typography>
        {node.state ? null : <Chip size="small" label={t('settings.people.disabled')} />}
        {tree.canCreate
          ? action('add_child', <AddIcon fontSize="small" />, () => tree.openAddChild(node))
          : null}
        {tree.canUpdate ? (
          <>
            {action('edit', <EditIcon fontSize="small" />, () => tree.openEdit(node), true)}
            {action('move', <DriveFileMoveIcon fontSize="small" />, () => tree.openMove(node))}
          </>
        ) : null}
        {tree.canDelete
          ? action('delete', <DeleteIcon fontSize="small" />, () => void tree.remove(node))
          : null}
      </Stack>
      {node.children.length ? (
        <Box component="ul" sx={{ m: 0, p: 0 }}>
          {node.children.map((child) => (
            <DepartmentItem key={child.id} node={child} depth={depth + 1} tree={tree} />
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
