import { AutocompleteArrayInput, AutocompleteInput, ReferenceArrayInput, ReferenceInput } from 'react-admin';
import { common, type InputKindTable } from './common.ts';

/** Relations: an autocomplete over the related resource's records. */
export const REFERENCE_INPUTS: InputKindTable<'belongsTo' | 'manyToMany'> = {
  // The child input carries the label and the required mark (ReferenceInput does not pass them on).
  belongsTo: (f, ctx) => {
    const { label, isRequired, resource, ...rest } = common(f, ctx);
    return (
      <ReferenceInput {...rest} reference={f.meta.relation?.resource ?? ''} label={label}>
        <AutocompleteInput label={label} resource={resource} isRequired={isRequired} />
      </ReferenceInput>
    );
  },
  manyToMany: (f, ctx) => {
    const { label, isRequired, resource, ...rest } = common(f, ctx);
    return (
      <ReferenceArrayInput {...rest} reference={f.meta.relation?.resource ?? ''} label={label}>
        <AutocompleteArrayInput label={label} resource={resource} isRequired={isRequired} />
      </ReferenceArrayInput>
    );
  },
};
