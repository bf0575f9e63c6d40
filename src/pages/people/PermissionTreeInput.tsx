import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import { useInput, useTranslate } from 'react-admin';
import { FieldAccessTable } from './FieldAccessTable.tsx';
import { PermissionTree } from './PermissionTree.tsx';
import { resourcesOfPage, type RoleFieldAccess } from './roleAccess.ts';

/**
 * `permissions.menu_ids` of a role as the permission tree, inside a react-admin form, with the table of
 * each page's fields (`field_access`) under the page. A role without field access shows every field
 * writable; `field_access` is sent only once the user changes a field's level.
 */
export function PermissionTreeInput() {
  const translate = useTranslate();
  const { field } = useInput<string[]>({ source: 'permissions.menu_ids', defaultValue: [] });
  const { field: access } = useInput<RoleFieldAccess | undefined>({ source: 'field_access' });
  return (
    <Stack sx={{ width: '100%' }}>
      <FormLabel component="legend">{translate('resources.roles.fields.permissions')}</FormLabel>
      <PermissionTree
        value={field.value ?? []}
        onChange={(next) => field.onChange(next)}
        belowPage={(page) =>
          resourcesOfPage(page.name).map((resource) => (
            <FieldAccessTable
              key={resource.name}
              resource={resource}
              value={access.value ?? {}}
              onChange={(next) => access.onChange(next)}
            />
          ))
        }
      />
    </Stack>
  );
}
