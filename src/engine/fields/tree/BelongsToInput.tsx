import { AutocompleteInput, ReferenceInput, useResourceDefinition } from 'react-admin';
import type { TreeOptions } from '../../data/registry.ts';
import { TreePickerInput } from './TreePickerInput.tsx';

/**
 * A reference's input: the tree picker when the target is a tree (EngineResource registers its
 * `options.tree`: a `parent_id` field), else an autocomplete over the target's records.
 *
 * @example
 * <BelongsToInput source="department_id" resource="staff" reference="departments" label="..." />
 */
export function BelongsToInput({
  source,
  resource,
  reference,
  label,
  isRequired,
  isFilter = false,
  alwaysOn,
}: {
  source: string;
  resource: string;
  reference: string;
  label?: string;
  isRequired: boolean;
  isFilter?: boolean;
  alwaysOn?: boolean;
}) {
  const definition = useResourceDefinition({ resource: reference });
  const tree = (definition.options as { tree?: TreeOptions } | undefined)?.tree;
  if (tree)
    return (
      <TreePickerInput
        source={source}
        resource={resource}
        label={label}
        target={reference}
        tree={tree}
        isRequired={isRequired}
        isFilter={isFilter}
      />
    );
  // The child input carries the label and the required mark (ReferenceInput does not pass them on).
  return (
    <ReferenceInput source={source} reference={reference} label={label} alwaysOn={alwaysOn}>
      <AutocompleteInput label={label} resource={resource} isRequired={isRequired} />
    </ReferenceInput>
  );
}
