import { useMemo } from 'react';
import { SaveButton, SimpleForm, Toolbar, useTranslate } from 'react-admin';
import type { ReactNode } from 'react';
import type { Resource } from '../../resources/define.ts';
import { renderInput, renderReadOnlyInput } from './inputTable.tsx';
import { engineFields } from './registry.ts';
import { schemaDefaults } from './schemaDefaults.ts';
import { zodResolver } from './zodResolver.ts';
import { DraftKeeper } from './DraftKeeper.tsx';

/**
 * The generated form of a resource: one input per field from the lookup table, read-only fields shown but
 * not editable (edit only), write-only fields as password inputs, validation with the resource's zod schema
 * and the server's messages, unsaved changes kept as a draft and warned about before leaving.
 */
export function ResourceForm({
  resource,
  isEdit,
  draftKey,
  toolbarExtra,
}: {
  resource: Resource;
  isEdit: boolean;
  draftKey: string;
  toolbarExtra?: ReactNode;
}) {
  const translate = useTranslate();
  const resolver = useMemo(() => zodResolver({ resource, translate, isEdit }), [resource, translate, isEdit]);
  const fields = engineFields(resource);
  const secrets = useMemo(() => fields.filter((f) => f.meta.writeOnly).map((f) => f.name), [fields]);
  const defaults = useMemo(() => (isEdit ? undefined : schemaDefaults(resource)), [resource, isEdit]);
  return (
    <SimpleForm
      resolver={resolver}
      defaultValues={defaults}
      warnWhenUnsavedChanges
      toolbar={
        <Toolbar>
          {/* On create, Save is usable at once so an empty form shows which fields are required. */}
          <SaveButton alwaysEnable={!isEdit} />
          {toolbarExtra}
        </Toolbar>
      }
    >
      <DraftKeeper draftKey={draftKey} secretFields={secrets} needsRecord={isEdit} />
      {fields.map((field) => {
        if (field.meta.readOnly) return isEdit ? renderReadOnlyInput(field) : null;
        return renderInput(field, { resource: resource.name, isEdit });
      })}
    </SimpleForm>
  );
}
