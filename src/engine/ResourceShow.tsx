import {
  ArrayField,
  Datagrid,
  EditButton,
  ResourceContextProvider,
  Show,
  SimpleShowLayout,
  TopToolbar,
  useGetRecordId,
  useResourceDefinition,
} from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { RecordCrumb } from './RecordCrumb.tsx';
import { renderField, useFieldKinds } from './fields/fieldTable.tsx';
import { describeResource } from './data/descriptor.ts';
import { readableFields } from './data/registry.ts';
import { useReadableCollections } from './form/useReadableCollections.ts';
import type { InlineCollection } from './form/schemaFields.ts';
import { DeleteRecordButton } from './form/DeleteRecordButton.tsx';
import { RecordActionButtons } from './form/RecordActionButtons.tsx';
import { useAbilities } from './data/useAbilities.ts';
import { HistoryPanel } from './form/HistoryPanel.tsx';

/**
 * The generated show screen: every readable field, unmasked (masks are for list cells), then each inline
 * has-many list as a table of the children (loaded with `include=<key>`).
 */
export function ResourceShow({ resource }: { resource: Resource }) {
  const described = describeResource(resource);
  const id = useGetRecordId();
  const can = useAbilities(resource);
  const { hasEdit } = useResourceDefinition({ resource: resource.name });
  const collections = useReadableCollections(resource);
  const include = collections.map((c) => c.key);
  const fields = readableFields(described);
  // The renderers of the kinds shown here that were not loaded yet (money, files...) load before it paints.
  useFieldKinds([...fields, ...collections.flatMap((c) => childColumns(c))], {});
  return (
    <Show
      resource={resource.name}
      queryOptions={{ meta: include.length ? { include } : undefined }}
      actions={
        <TopToolbar>
          {hasEdit && can.update ? <EditButton /> : null}
          <RecordActionButtons resource={described} />
          {can.delete ? <DeleteRecordButton resource={described} redirect="list" /> : null}
        </TopToolbar>
      }
    >
      <RecordCrumb resource={described} />
      <SimpleShowLayout>
        {fields.map((field) => renderField(field, { resource: resource.name }))}
        {collections.map((collection) => inlineListField(collection))}
      </SimpleShowLayout>
      <HistoryPanel resource={resource} id={id} />
    </Show>
  );
}

/** The children of one inline list: a row each, columns from the child's readable fields (not the key). */
function inlineListField(collection: InlineCollection) {
  const { child } = collection;
  const columns = childColumns(collection);
  return (
    <ArrayField key={collection.key} source={collection.key}>
      {/* Column titles are the child's labels: resources.<child>.fields.<field>. */}
      <ResourceContextProvider value={child.name}>
        <Datagrid bulkActionButtons={false} rowClick={false}>
          {columns.map((field) => renderField(field, { resource: child.name }))}
        </Datagrid>
      </ResourceContextProvider>
    </ArrayField>
  );
}

/** The columns of an inline list: the child's readable fields but the key to the parent. */
function childColumns({ child, foreignKey }: InlineCollection) {
  return readableFields(describeResource(child)).filter((f) => f.name !== foreignKey);
}
