import { lazy, Suspense } from 'react';
import { useResourceDefinition } from 'react-admin';
import type { TreeOptions } from '../../data/registry.ts';
import { TreePickerInput } from './TreePickerInput.tsx';

const ReferenceAutocomplete = lazy(() =>
  import('./ReferenceAutocomplete.tsx').then((m) => ({ default: m.ReferenceAutocomplete })),
);

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
  // Downloaded with the first such input (a tree's picker above needs none of it).
  return (
    <Suspense fallback={null}>
      <ReferenceAutocomplete
        source={source}
        resource={resource}
        reference={reference}
        label={label}
        isRequired={isRequired}
        alwaysOn={alwaysOn}
      />
    </Suspense>
  );
}
