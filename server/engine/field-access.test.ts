import { describe, expect, it } from 'vitest';
import { staff } from '../../resources/staff.ts';
import type { Principal, PrincipalRole } from '../core/principal.ts';
import { deniedFields, fieldAccessProblems, restrictedFields } from './field-access.ts';
import { parseListQuery } from './list/query.ts';

const role = (permissions: string[], fieldAccess: PrincipalRole['fieldAccess']): PrincipalRole => ({
  id: String(Math.random()),
  permissions: new Set(permissions),
  dataScope: 'all',
  departmentIds: [],
  fieldAccess,
});
const caller = (roles: PrincipalRole[], isAdmin = false): Principal => ({
  userId: '1',
  tokenId: '1',
  staff: { id: '1', isAdmin, departmentId: null },
  permissions: new Set(roles.flatMap((r) => [...r.permissions])),
  roles,
});

describe('restrictedFields', () => {
  const hides = role(['system.users.staff'], { 'staff.phone': 'hidden', 'staff.email': 'read' });

  it('the most permissive over the roles that grant the resource', () => {
    expect(Object.fromEntries(restrictedFields(caller([hides]), staff))).toEqual({
      phone: 'hidden',
      email: 'read',
    });
    const reads = role(['system.users.staff'], { 'staff.phone': 'read', 'staff.email': 'hidden' });
    expect(Object.fromEntries(restrictedFields(caller([hides, reads]), staff))).toEqual({
      phone: 'read',
      email: 'read',
    });
    const silent = role(['system.users.staff'], {});
    expect(restrictedFields(caller([hides, silent]), staff).size).toBe(0);
  });

  it('a role that does not grant the resource does not widen it; admins write all', () => {
    const other = role(['system.users.roles'], {});
    expect(restrictedFields(caller([hides, other]), staff).get('phone')).toBe('hidden');
    expect(restrictedFields(caller([hides], true), staff).size).toBe(0);
  });

  it('writes name the restricted keys; a create names a restricted required field even when left out', () => {
    const p = caller([role(['system.users.staff'], { 'staff.phone': 'hidden', 'staff.name': 'read' })]);
    expect(deniedFields(p, staff, [staff], { phone: '1', gender: 'male' })).toEqual(['phone']);
    expect(deniedFields(p, staff, [staff], { gender: 'male' }, 'create')).toEqual(['name']);
  });

  it('role keys: unknown fields, id and write-only fields are refused', () => {
    expect(
      fieldAccessProblems(
        { 'staff.id': 'hidden', 'staff.nope': 'read', 'x.y': 'read', 'staff.phone': 'read' },
        [staff],
      ),
    ).toEqual({ 'staff.id': 'unknown_field', 'staff.nope': 'unknown_field', 'x.y': 'unknown_field' });
  });
});

describe('the list query of a caller with hidden fields', () => {
  const hidden = new Set(['phone', 'department_id']);
  const refused = (raw: Record<string, string>) => {
    try {
      parseListQuery(staff, raw, { hidden });
      return null;
    } catch (error) {
      return (error as { status: number; key: string }).key;
    }
  };

  it('treats them as unknown: search, sort and include', () => {
    expect(refused({ search: 'phone:1' })).toBe(refused({ search: 'nofield:1' }));
    expect(refused({ orderBy: 'phone' })).toBe('engine.query.unknown_sort_field');
    expect(refused({ include: 'department' })).toBe('engine.query.unknown_include');
    expect(refused({ include: 'roles', search: 'name:a' })).toBeNull();
  });

  it('q leaves them out', () => {
    const q = parseListQuery(staff, { q: 'x' }, { hidden });
    expect(q.where).not.toContain('"phone"');
    expect(parseListQuery(staff, { q: 'x' }).where).toContain('"phone"');
  });
});
