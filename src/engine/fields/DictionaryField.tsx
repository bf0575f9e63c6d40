import { SelectField, TextField } from 'react-admin';
import { useDictionaryChoices } from './useDictionaryChoices.ts';
import type { EngineField } from '../data/registry.ts';

/** A dictionary-backed value shown with its dictionary label (the raw value until the dictionary loads). */
export function DictionaryField({
  field,
}: {
  field: EngineField;
  source?: string;
  label?: string;
  sortable?: boolean;
}) {
  const { choices } = useDictionaryChoices(field.meta.dictionary ?? '');
  if (!choices.length) return <TextField source={field.name} label={field.label} />;
  return <SelectField source={field.name} label={field.label} choices={choices} translateChoice={false} />;
}
