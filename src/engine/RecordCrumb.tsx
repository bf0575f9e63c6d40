import { useEffect } from 'react';
import { useRecordContext } from 'react-admin';
import type { ResourceDescriptor as Resource } from './data/descriptor.ts';
import { setRecordLabel } from '../providers/pageTitleStore.ts';
import { representationField } from './data/registry.ts';

/**
 * Hands the loaded record's representation to the layout's breadcrumbs and title ("Settings > Staff > Li
 * Lei"). Renders nothing; place it inside an Edit or Show.
 */
export function RecordCrumb({ resource }: { resource: Resource }) {
  const record = useRecordContext<Record<string, unknown>>();
  const value = record?.[representationField(resource)];
  const id = record?.id;
  useEffect(() => {
    if (id != null && value != null && value !== '') setRecordLabel(resource.name, String(id), String(value));
  }, [resource.name, id, value]);
  return null;
}
