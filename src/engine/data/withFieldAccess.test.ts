import { describe, expect, it } from 'vitest';
import { toFieldAccess } from '../../providers/fieldAccess.ts';
import { contacts } from '../testing/contacts.ts';
import { describeResource } from './descriptor.ts';
import { filterFields, listFields } from './registry.ts';
import { hiddenByAccess, readOnlyByAccess, withFieldAccess } from './withFieldAccess.ts';

const described = describeResource(contacts);

describe('withFieldAccess', () => {
  it('takes hidden fields out of the columns, filters, sorts and searches, and marks read-only ones', () => {
    const seen = withFieldAccess(described, { 'contacts.age': 'hidden', 'contacts.phone': 'hidden', 'contacts.email': 'read' });
    expect(seen.fields.map((f) => f.name)).not.toEqual(expect.arrayContaining(['age']));
    expect(listFields(seen).map((f) => f.name)).not.toContain('phone');
    expect(listFields(described).map((f) => f.name)).toContain('phone');
    expect(filterFields(seen).map((f) => f.name)).not.toContain('age');
    expect(filterFields(described).map((f) => f.name)).toContain('age');
    expect(seen.sortable).not.toContain('age');
    expect(seen.searchable.map((f) => f.name)).not.toContain('age');
    expect(seen.fields.find((f) => f.name === 'email')?.meta.readOnly).toBe(true);
    expect(described.fields.find((f) => f.name === 'email')?.meta.readOnly).toBeUndefined();
  });

  it('gives back the same descriptor for the same access, and the resource itself when nothing applies', () => {
    const access = { 'contacts.age': 'hidden' } as const;
    expect(withFieldAccess(described, access)).toBe(withFieldAccess(described, { ...access }));
    expect(withFieldAccess(described, { 'staff.age': 'hidden' })).toBe(described);
  });

  it('orders by id when the default sort field is hidden, and names a record by id when its name is', () => {
    const byName = { ...described, defaultSort: { field: 'name', order: 'asc' as const } };
    const seen = withFieldAccess(byName, { 'contacts.name': 'hidden' });
    expect(seen.defaultSort).toEqual({ field: 'id', order: 'desc' });
    expect(seen.options.recordRepresentation).toBe('id');
    expect(withFieldAccess(byName, { 'contacts.age': 'hidden' }).defaultSort).toEqual(byName.defaultSort);
  });

  it('lists a resource’s hidden and read-only fields, and keeps only well-formed answers', () => {
    const access = toFieldAccess({ 'contacts.age': 'hidden', 'contacts.email': 'read', 'contacts.x': 'write', bad: 1 });
    expect(access).toEqual({ 'contacts.age': 'hidden', 'contacts.email': 'read' });
    expect([...hiddenByAccess('contacts', access)]).toEqual(['age']);
    expect([...readOnlyByAccess('contacts', access)]).toEqual(['email']);
    expect(toFieldAccess(null)).toEqual({});
    expect(toFieldAccess(['x'])).toEqual({});
  });
});
