import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import { useInput, useTranslate } from 'react-admin';
import { PermissionTree } from './PermissionTree.tsx';

/** `permissions.menu_ids` of a role as the permission tree, inside a react-admin form. */
export function PermissionTreeInput() {
  const translate = useTranslate();
  const { field } = useInput<string[]>({ source: 'permissions.menu_ids', defaultValue: [] });
  return (
    <Stack sx={{ width: '100%' }}>
      <FormLabel component="legend">{translate('resources.roles.fields.permissions')}</FormLabel>
      <PermissionTree value={field.value ?? []} onChange={(next) => field.onChange(next)} />
    </Stack>
  );
}
