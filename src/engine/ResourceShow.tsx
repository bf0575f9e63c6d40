import {
  ArrayField,
  Datagrid,
  EditButton,
  ResourceContextProvider,
  Show,
  SimpleShowLayout,
  TopToolbar,
  useResourceDefinition,
} from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { RecordCrumb } from './RecordCrumb.tsx';
import { renderField } from './fieldTable.tsx';
import { describeResource } from './descriptor.ts';
import { readableFields } from './registry.ts';
import { useReadableCollections } from './useReadableCollections.ts';
import type { InlineCollection } from './schemaFields.ts';
import { DeleteRecordButton } from './DeleteRecordButton.tsx';
import { useAbilities } from './useAbilities.ts';

/**
 * The generated show screen: every readable field, unmasked (masks are for list cells), then each inline
 * has-many list as a table of the children (loaded with `include=<key>`).
 */
export function ResourceShow({ resource }: { resource: Resource }) {
  const described = describeResource(resource);
  const can = useAbilities(resource);
  const { hasEdit } = useResourceDefinition({ resource: resource.name });
  const collections = useReadableCollections(resource);
  const include = collections.map((c) => c.key);
  return (
    <Show
      resource={resource.name}
      queryOptions={{ meta: include.length ? { include } : undefined }}
      actions={
        <TopToolbar>
          {hasEdit && can.update ? <EditButton /> : null}
          {can.delete ? <DeleteRecordButton resource={described} redirect="list" /> : null}
        </TopToolbar>
      }
    >
      <RecordCrumb resource={described} />
      <SimpleShowLayout>
        {readableFields(described).map((field) => renderField(field, { resource: resource.name }))}
        {collections.map((collection) => inlineListField(collection))}
      </SimpleShowLayout>
    </Show>
  );
}

/** The children of one inline list: a row each, columns from the child's readable fields (not the key). */
function inlineListField(collection: InlineCollection) {
  const { child, foreignKey } = collection;
  const columns = readableFields(describeResource(child)).filter((f) => f.name !== foreignKey);
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
