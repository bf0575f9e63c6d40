import type { EngineField } from '../../data/registry.ts';
import type { FieldKind } from '../../fields/fieldKind.ts';

/** The kinds a list cell edits in place: one-line inputs. Long text, lists, JSON and files open the form. */
const INLINE_KINDS: ReadonlySet<FieldKind> = new Set<FieldKind>([
  'string',
  'email',
  'url',
  'number',
  'money',
  'boolean',
  'enum',
  'date',
  'datetime',
  'dictionary',
  'belongsTo',
]);

/**
 * Whether a list column can be edited in its cell: a kind with a one-line input, a field the form writes (not
 * read-only, computed or system: `meta.readOnly`), not masked in lists, and not read-only for the caller.
 */
export function isInlineEditable(field: EngineField, readOnlyForCaller: ReadonlySet<string>): boolean {
  return (
    INLINE_KINDS.has(field.kind) &&
    !field.meta.readOnly &&
    !field.meta.writeOnly &&
    !field.meta.mask &&
    !readOnlyForCaller.has(field.name)
  );
}
