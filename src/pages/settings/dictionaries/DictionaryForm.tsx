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
  notice,
  keepTyped = false,
}: {
  resource: Resource;
  isEdit: boolean;
  /** Unsaved values are kept under this key (edit pages are kept alive, spec 2). */
  draftKey: string;
  toolbarExtra?: ReactNode;
  /** Shown at the top of the form (the version conflict after a stale save). */
  notice?: ReactNode;
  /** Keep typed values when the record is replaced (after a stale save's 409). */
  keepTyped?: boolean;
}) {
  const translate = useTranslate();
  const resolver = useMemo(() => zodResolver({ resource, translate, isEdit }), [resource, translate, isEdit]);
  return (
    <SimpleForm
      resolver={resolver}
      warnWhenUnsavedChanges
      defaultValues={isEdit ? undefined : { data: [] }}
      resetOptions={keepTyped ? { keepDirtyValues: true } : undefined}
      toolbar={
        <Toolbar>
          <SaveButton alwaysEnable={!isEdit} />
          {toolbarExtra}
        </Toolbar>
      }
    >
      <DraftKeeper draftKey={draftKey} secretFields={[]} needsRecord={isEdit} />
      {notice}
      <TextInput source="name" isRequired />
      <TextInput source="slug" isRequired helperText="settings.dictionaries.slug_help" />
      <DictionaryDataInput />
    </SimpleForm>
  );
}
