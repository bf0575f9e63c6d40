import { lazy, Suspense, type ComponentProps } from 'react';
import { useResourceDefinition } from 'react-admin';
import type { TreeOptions } from '../../data/registry.ts';
import type { BelongsToInput as BelongsToInputType } from './BelongsToInput.tsx';
import { TreePickerInput } from './TreePickerInput.tsx';

const BelongsToInput = lazy(() =>
  import('./BelongsToInput.tsx').then((m) => ({ default: m.BelongsToInput })),
);

/**
 * BelongsToInput for a screen whose reference's target is a tree (the staff list's department filter): the
 * tree picker without react-admin's and MUI's Autocomplete, which BelongsToInput imports for other targets
 * and which then download only if the target turns out not to be a tree.
 *
 * @example
 * <TreeReferenceInput source="department_id" resource="staff" reference="departments" isRequired={false} />
 */
export function TreeReferenceInput(props: ComponentProps<typeof BelongsToInputType>) {
  const definition = useResourceDefinition({ resource: props.reference });
  const tree = (definition.options as { tree?: TreeOptions } | undefined)?.tree;
  if (tree)
    return (
      <TreePickerInput
        source={props.source}
        resource={props.resource}
        label={props.label}
        target={props.reference}
        tree={tree}
        isRequired={props.isRequired}
        isFilter={props.isFilter}
      />
    );
  return (
    <Suspense fallback={null}>
      <BelongsToInput {...props} />
    </Suspense>
  );
}
