import { cloneElement, useMemo } from 'react';
import { ArrayInput, SaveButton, SimpleForm, SimpleFormIterator, Toolbar, useTranslate } from 'react-admin';
import type { ReactElement, ReactNode } from 'react';
import type { Resource } from '../../../resources/define.ts';
import { useEngineRegistry } from '../data/engineRegistryContext.ts';
import { renderInput, renderReadOnlyInput } from '../fields/inputTable.tsx';
import { inlineCollections, inlineRowFields, schemaFields } from './schemaFields.ts';
import { useReadableCollections } from './useReadableCollections.ts';
import type { InlineCollection } from './schemaFields.ts';
import { schemaDefaults } from './schemaDefaults.ts';
import { zodResolver } from './zodResolver.ts';
import { DraftKeeper } from './DraftKeeper.tsx';
import { useFieldAccess } from '../../providers/fieldAccess.ts';
import { readOnlyByAccess } from '../data/withFieldAccess.ts';

/**
 * The generated form of a resource: one input per field from the lookup table, read-only fields shown but
 * not editable (edit only), write-only fields as password inputs, validation with the resource's zod schema
 * and the server's messages, unsaved changes kept as a draft and warned about before leaving. Inline has-many
 * lists are rows of the child's inputs (add, remove), labelled `resources.<name>.fields.<key>`. A field the
 * caller's roles make read-only (`field_access`, SchemaView marks it read-only) is its usual input, disabled,
 * on create and edit; a hidden one is not in the resource it gets at all.
 */
export function ResourceForm({
  resource,
  isEdit,
  draftKey,
  toolbarExtra,
  keepTyped = false,
  notice,
}: {
  resource: Resource;
  isEdit: boolean;
  draftKey: string;
  toolbarExtra?: ReactNode;
  /** When the record is replaced (a stale save's current record), keep what the user typed. */
  keepTyped?: boolean;
  /** Shown above the inputs, inside the form (the version conflict). */
  notice?: ReactNode;
}) {
  const translate = useTranslate();
  const registry = useEngineRegistry();
  const resolver = useMemo(
    () => zodResolver({ resource, translate, isEdit, registry }),
    [resource, translate, isEdit, registry],
  );
  const fields = schemaFields(resource);
  const all = useMemo(() => inlineCollections(resource, registry), [resource, registry]);
  // On edit only the lists the user may read were loaded (useReadableCollections); the others stay hidden.
  const readable = useReadableCollections(resource);
  const collections = isEdit ? readable : all;
  const secrets = useMemo(() => fields.filter((f) => f.meta.writeOnly).map((f) => f.name), [fields]);
  const defaults = useMemo(() => (isEdit ? undefined : schemaDefaults(resource)), [resource, isEdit]);
  const { access } = useFieldAccess();
  const readOnlyForCaller = readOnlyByAccess(resource.name, access);
  return (
    <SimpleForm
      resolver={resolver}
      defaultValues={defaults}
      warnWhenUnsavedChanges
      resetOptions={keepTyped ? { keepDirtyValues: true } : undefined}
      toolbar={
        <Toolbar>
          {/* On create, Save is usable at once so an empty form shows which fields are required. */}
          <SaveButton alwaysEnable={!isEdit} />
          {toolbarExtra}
        </Toolbar>
      }
    >
      <DraftKeeper draftKey={draftKey} secretFields={secrets} needsRecord={isEdit} />
      {notice}
      {fields.map((field) => {
        if (readOnlyForCaller.has(field.name)) {
          const input = renderInput(field, { resource: resource.name, isEdit });
          return cloneElement(input as ReactElement<{ disabled?: boolean }>, { disabled: true });
        }
        if (field.meta.readOnly) return isEdit ? renderReadOnlyInput(field) : null;
        return renderInput(field, { resource: resource.name, isEdit });
      })}
      {collections.map((collection) => (
        <InlineListInput key={collection.key} collection={collection} isEdit={isEdit} />
      ))}
    </SimpleForm>
  );
}

/**
 * One inline has-many list: a row per child with the child's inputs from the lookup table (labels
 * `resources.<child>.fields.<field>`), the foreign key left out (the server sets it). A new row starts with
 * the child's defaults.
 */
function InlineListInput({ collection, isEdit }: { collection: InlineCollection; isEdit: boolean }) {
  const translate = useTranslate();
  const rowFields = useMemo(() => inlineRowFields(collection), [collection]);
  const newRow = useMemo(
    () => ({
      ...Object.fromEntries(rowFields.map((f) => [f.name, null])),
      ...schemaDefaults(collection.child),
    }),
    [rowFields, collection.child],
  );
  return (
    <ArrayInput source={collection.key}>
      <SimpleFormIterator inline disableReordering getItemDefaults={(item: unknown) => item ?? { ...newRow }}>
        {/* Labels translated here: inside the iterator react-admin would look them up by the row's path. */}
        {rowFields.map((field) =>
          renderInput(
            {
              ...field,
              label:
                field.label ??
                translate(`resources.${collection.child.name}.fields.${field.name}`, {
                  _: humanize(field.name),
                }),
            },
            { resource: collection.child.name, isEdit },
          ),
        )}
      </SimpleFormIterator>
    </ArrayInput>
  );
}

/** `is_vip` -> `Is vip`, react-admin's fallback label of a field without a translation. */
function humanize(name: string): string {
  const words = name.replace(/_id(s)?$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
