import type { FieldInfo } from './fields.ts';

/**
 * A 0/1 flag: an integer field whose only values are 0 and 1 (`is_admin: z.int().min(0).max(1)`). It is a
 * yes/no switch everywhere people see it (forms, cells, CSV as the localized Yes/No), while the wire keeps
 * the number.
 */
export function isFlag(f: Pick<FieldInfo, 'kind' | 'intRange'>): boolean {
  return f.kind === 'int' && f.intRange?.min === 0n && f.intRange.max === 1n;
}
