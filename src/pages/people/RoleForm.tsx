import { BooleanInput, NumberInput, SimpleForm, TextInput, required, useTranslate } from 'react-admin';
import type { ReactElement, ReactNode } from 'react';
import { DataScopeInput } from './DataScopeInput.tsx';
import { PermissionTreeInput } from './PermissionTreeInput.tsx';

/**
 * The role form: name, intro, sort, state, the data scope (with its departments for `custom`) and the whole
 * permission tree with each page's field access. `toolbar` replaces react-admin's default (RoleEdit's delete);
 * `notice` sits at the top (the version conflict after a stale save), and `keepTyped` keeps what was typed
 * when the record is replaced by the current one.
 */
export function RoleForm({
  toolbar,
  notice,
  keepTyped = false,
}: { toolbar?: ReactElement; notice?: ReactNode; keepTyped?: boolean } = {}) {
  const translate = useTranslate();
  const label = (field: string) => translate(`resources.roles.fields.${field}`);
  return (
    <SimpleForm
      warnWhenUnsavedChanges
      resetOptions={keepTyped ? { keepDirtyValues: true } : undefined}
      {...(toolbar ? { toolbar } : {})}
    >
      {notice}
      <TextInput source="name" label={label('name')} validate={required()} />
      <TextInput source="intro" label={label('intro')} multiline minRows={2} />
      <NumberInput source="sort" label={label('sort')} min={0} />
      <BooleanInput source="state" label={label('state')} />
      <DataScopeInput />
      <PermissionTreeInput />
    </SimpleForm>
  );
}
