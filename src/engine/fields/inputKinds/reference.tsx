import { AutocompleteArrayInput, ReferenceArrayInput } from 'react-admin';
import { BelongsToInput } from '../tree/BelongsToInput.tsx';
import { common, type InputKindTable } from './common.ts';

/** Relations: an autocomplete over the related resource's records, or a tree picker when they form a tree. */
export const REFERENCE_INPUTS: InputKindTable<'belongsTo' | 'manyToMany'> = {
  belongsTo: (f, ctx) => {
    const { label, isRequired, resource, source, alwaysOn } = common(f, ctx);
    return (
      <BelongsToInput
        source={source}
        resource={resource}
        reference={f.meta.relation?.resource ?? ''}
        label={label}
        isRequired={isRequired}
        isFilter={ctx.isFilter}
        alwaysOn={alwaysOn}
      />
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
