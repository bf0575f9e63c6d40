import { useMemo } from 'react';
import { SaveButton, SimpleForm, TextInput, Toolbar, useTranslate } from 'react-admin';
import type { ReactNode } from 'react';
import type { Resource } from '../../../../resources/define.ts';
import { DraftKeeper } from '../../../engine/form/DraftKeeper.tsx';
import { zodResolver } from '../../../engine/form/zodResolver.ts';
import { DictionaryDataInput } from './DictionaryDataInput.tsx';

/** The dictionary type form: name, slug and the inline entries, checked with the resource's schema. */
export function DictionaryForm({
  resource,
  isEdit,
  draftKey,
  toolbarExtra,
}: {
  resource: Resource;
  isEdit: boolean;
  /** Unsaved values are kept under this key (edit pages are kept alive, spec 2). */
  draftKey: string;
  toolbarExtra?: ReactNode;
}) {
  const translate = useTranslate();
  const resolver = useMemo(() => zodResolver({ resource, translate, isEdit }), [resource, translate, isEdit]);
  return (
    <SimpleForm
      resolver={resolver}
      warnWhenUnsavedChanges
      defaultValues={isEdit ? undefined : { data: [] }}
      toolbar={
        <Toolbar>
          <SaveButton alwaysEnable={!isEdit} />
          {toolbarExtra}
        </Toolbar>
      }
    >
      <DraftKeeper draftKey={draftKey} secretFields={[]} needsRecord={isEdit} />
      <TextInput source="name" isRequired />
      <TextInput source="slug" isRequired helperText="settings.dictionaries.slug_help" />
      <DictionaryDataInput />
    </SimpleForm>
  );
}
