import { SelectInput, TextInput } from 'react-admin';
import type { InputProps } from 'react-admin';
import { useDictionaryChoices } from './useDictionaryChoices.ts';
import type { EngineField } from '../data/registry.ts';

/** A select of the dictionary's enabled entries; free text while the dictionary has none. */
export function DictionaryInput({ spec, ...props }: Omit<InputProps, 'source'> & { spec: EngineField }) {
  const { choices, isPending } = useDictionaryChoices(spec.meta.dictionary ?? '');
  if (!isPending && !choices.length) return <TextInput {...props} source={spec.name} label={spec.label} />;
  return (
    <SelectInput
      {...props}
      source={spec.name}
      label={spec.label}
      choices={choices}
      translateChoice={false}
      isPending={isPending}
    />
  );
}
