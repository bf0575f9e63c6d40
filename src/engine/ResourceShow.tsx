import { EditButton, Show, SimpleShowLayout, TopToolbar, useResourceDefinition } from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { renderField } from './fieldTable.tsx';
import { readableFields } from './registry.ts';
import { DeleteRecordButton } from './DeleteRecordButton.tsx';
import { useAbilities } from './useAbilities.ts';

/** The generated show screen: every readable field, unmasked (masks are for list cells). */
export function ResourceShow({ resource }: { resource: Resource }) {
  const can = useAbilities(resource);
  const { hasEdit } = useResourceDefinition({ resource: resource.name });
  return (
    <Show
      resource={resource.name}
      actions={
        <TopToolbar>
          {hasEdit && can.update ? <EditButton /> : null}
          {can.delete ? <DeleteRecordButton resource={resource} redirect="list" /> : null}
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        {readableFields(resource).map((field) => renderField(field, { resource: resource.name }))}
      </SimpleShowLayout>
    </Show>
  );
}
