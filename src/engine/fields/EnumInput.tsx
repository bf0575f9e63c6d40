import { SelectInput } from 'react-admin';
import type { InputProps } from 'react-admin';
import { useEnumChoices } from './useEnumChoices.ts';
import type { EngineField } from '../data/registry.ts';

/** A select of an enum field's translated options. */
export function EnumInput({
  resource,
  spec,
  ...props
}: Omit<InputProps, 'source'> & { resource: string; spec: EngineField }) {
  const choices = useEnumChoices(resource, spec);
  return (
    <SelectInput
      {...props}
      resource={resource}
      source={spec.name}
      label={spec.label}
      choices={choices}
      translateChoice={false}
    />
  );
}
