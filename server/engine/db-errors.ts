import type { Resource } from '../../resources/define.ts';
import { AppError } from '../core/errors.ts';
import { constraintName } from './ddl.ts';
import { fieldsOf, joinTableOf } from './fields.ts';

/**
 * Maps a database error from a write to the contract: a unique violation (23505) is a 409 naming the field
 * (the pre-check can lose a race), a foreign key violation (23503) a 422 on the field, or a 409 "in use"
 * when deleting a record others still reference. Anything else is rethrown.
 */
export function mapDbError(resource: Resource, error: unknown, label: (field: string) => string): never {
  const e = error as { code?: string; constraint?: string };
  const field = e.constraint ? fieldOfConstraint(resource, e.constraint) : undefined;
  if (e.code === '23505' && field) throw AppError.conflict(field, label(field));
  if (e.code === '23503') {
    if (field) throw AppError.validation({ [field]: ['engine.record.reference_missing'] });
    throw new AppError(409, 'engine.record.in_use', { fields: { id: ['engine.record.in_use_short'] } });
  }
  throw error;
}

function fieldOfConstraint(resource: Resource, constraint: string): string | undefined {
  for (const f of fieldsOf(resource)) {
    if (f.kind === 'references') {
      const j = joinTableOf(resource, f);
      if (constraint === constraintName(j.table, j.targetColumn, 'fkey')) return f.name;
      continue;
    }
    const names = [
      constraintName(resource.table, f.name, 'key'),
      constraintName(resource.table, f.name, 'fkey'),
    ];
    if (names.includes(constraint)) return f.name;
  }
  return undefined;
}
