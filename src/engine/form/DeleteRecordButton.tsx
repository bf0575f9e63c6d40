import { DeleteWithConfirmButton, useRecordContext } from 'react-admin';
import type { ResourceDescriptor as Resource } from '../data/descriptor.ts';
import { representationField } from '../data/registry.ts';

/** Delete with the spec's "Confirm to delete {name}?" dialog, name being the record's representation. */
export function DeleteRecordButton({
  resource,
  redirect = false,
}: {
  resource: Resource;
  redirect?: string | false;
}) {
  const record = useRecordContext();
  if (!record) return null;
  const name = String(record[representationField(resource)] ?? `#${record.id}`);
  return (
    <DeleteWithConfirmButton
      record={record}
      mutationMode="pessimistic"
      redirect={redirect}
      confirmTitle="engine.delete.confirm"
      titleTranslateOptions={{ name }}
      confirmContent={null}
    />
  );
}
