import { SelectField } from 'react-admin';
import { useEnumChoices } from './useEnumChoices.ts';
import type { EngineField } from '../data/registry.ts';

/** An enum value shown with its translated label. */
export function EnumField({
  resource,
  field,
}: {
  resource: string;
  field: EngineField;
  source?: string;
  label?: string;
  sortable?: boolean;
}) {
  const choices = useEnumChoices(resource, field);
  return <SelectField source={field.name} label={field.label} choices={choices} translateChoice={false} />;
}
