import { isValidElement, useMemo } from 'react';
import type { ReactElement, ReactNode } from 'react';
import type { EngineField } from '../../data/registry.ts';
import { readOnlyByAccess } from '../../data/withFieldAccess.ts';
import { useFieldAccess } from '../../../providers/fieldAccess.ts';
import { InlineCell } from './InlineCell.tsx';
import { isInlineEditable } from './inlineKinds.ts';

/** What the datagrid reads off a column element for its header and cell. */
const COLUMN_PROPS = [
  'source',
  'label',
  'sortable',
  'sortBy',
  'sortByOrder',
  'textAlign',
  'headerClassName',
  'cellClassName',
];

/**
 * Wraps the list's columns in cells the keyboard can move between and, where the caller may write the field,
 * edit in place (InlineCell). Returns a function from a field and its rendered column to the wrapped column.
 *
 * @example
 * const toCell = useInlineColumns(resource.name, can.update);
 * fields.map((field) => toCell(field, renderField(field, ctx)));
 */
export function useInlineColumns(
  resource: string,
  canUpdate: boolean,
): (field: EngineField, column: ReactNode) => ReactNode {
  const { access } = useFieldAccess();
  const readOnly = useMemo(() => readOnlyByAccess(resource, access), [resource, access]);
  return (field, column) => {
    if (!isValidElement(column)) return column;
    const props = column.props as Record<string, unknown>;
    const header = Object.fromEntries(
      COLUMN_PROPS.filter((key) => key in props).map((key) => [key, props[key]]),
    );
    return (
      <InlineCell
        key={field.name}
        {...header}
        source={field.name}
        resource={resource}
        isEditable={canUpdate && isInlineEditable(field, readOnly)}
        isInGrid={canUpdate}
      >
        {column as ReactElement}
      </InlineCell>
    );
  };
}
