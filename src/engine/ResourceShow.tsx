import { EditButton, Show, SimpleShowLayout, TopToolbar } from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { renderField } from './fieldTable.tsx';
import { readableFields } from './registry.ts';
import { DeleteRecordButton } from './DeleteRecordButton.tsx';

/** The generated show screen: every readable field, unmasked (masks are for list cells). */
export function ResourceShow({ resource }: { resource: Resource }) {
  return (
    <Show
      resource={resource.name}
      actions={
        <TopToolbar>
          <EditButton />
          <DeleteRecordButton resource={resource} redirect="list" />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        {readableFields(resource).map((field) => renderField(field, { resource: resource.name }))}
      </SimpleShowLayout>
    </Show>
  );
}
