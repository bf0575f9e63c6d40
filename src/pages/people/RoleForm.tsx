import { BooleanInput, NumberInput, SimpleForm, TextInput, required, useTranslate } from 'react-admin';
import { PermissionTreeInput } from './PermissionTreeInput.tsx';

/** The role form: name, intro, sort, state and the whole permission tree. */
export function RoleForm() {
  const translate = useTranslate();
  const label = (field: string) => translate(`resources.roles.fields.${field}`);
  return (
    <SimpleForm warnWhenUnsavedChanges>
      <TextInput source="name" label={label('name')} validate={required()} />
      <TextInput source="intro" label={label('intro')} multiline minRows={2} />
      <NumberInput source="sort" label={label('sort')} min={0} />
      <BooleanInput source="state" label={label('state')} />
      <PermissionTreeInput />
    </SimpleForm>
  );
}
