import { describe, expect, it } from 'vitest';
import { departments } from '../../resources/departments.ts';
import { staff } from '../../resources/staff.ts';
import { gadgets } from '../fixtures/gadgets.ts';
import {
  effectiveFieldAccess,
  fieldLevel,
  mayDo,
  mayRead,
  oracleResource,
  scopeColumnsOf,
  visibleIds,
  type OracleCaller,
  type OracleRole,
  type OracleWorld,
} from '../helpers/access-oracle.ts';

/**
 * The oracle of the generated access tests (tests/helpers/access-oracle.ts) on a small world worked out by
 * hand from the contract, so the generated suite compares the server with something known to be right.
 *
 *   1 Head office
 *   ├─ 2 Sales
 *   │   └─ 4 Sales East
 *   └─ 3 Support
 *   5 Branch (a second root)
 */
const world: OracleWorld = {
  departments: [
    { id: '1', parentId: '0' },
    { id: '2', parentId: '1' },
    { id: '3', parentId: '1' },
    { id: '4', parentId: '2' },
    { id: '5', parentId: '0' },
  ],
  roles: [
    role('r-all', 'all'),
    role('r-dept', 'department'),
    role('r-below', 'department_and_below', {
      fieldAccess: { 'staff.phone': 'hidden', 'staff.email': 'read' },
    }),
    role('r-custom', 'custom', { departmentIds: ['3', '5'] }),
    role('r-self', 'self', { fieldAccess: { 'staff.phone': 'read' } }),
    role('r-off', 'all', { enabled: false }),
    role('r-nostaff', 'all', { permissions: ['system.users.departments'] }),
  ],
};

const STAFF = [
  { id: '10', department_id: '1', created_by: '100' },
  { id: '11', department_id: '2', created_by: '101' },
  { id: '12', department_id: '4', created_by: '102' },
  { id: '13', department_id: '3', created_by: '101' },
  { id: '14', department_id: '5', created_by: '100' },
  { id: '15', department_id: null, created_by: '102' },
  { id: '16', department_id: null, created_by: null, user_id: '101' },
];
const S = oracleResource(staff);

describe('the access oracle (hand-written world)', () => {
  it('reads the scope columns from the declarations: department_id, the departments themselves, created_by, staff by user_id', () => {
    expect(scopeColumnsOf(staff)).toEqual({
      department: 'department_id',
      owner: 'created_by',
      self: 'user_id',
    });
    expect(scopeColumnsOf(departments)).toEqual({
      department: 'id',
      owner: 'created_by',
      self: null,
    });
    expect(scopeColumnsOf(gadgets)).toEqual({ department: null, owner: 'created_by', self: null });
  });

  it('gives each data scope its rows', () => {
    expect(visibleIds(world, caller(['r-all'], '2'), S, STAFF)).toEqual([
      '10',
      '11',
      '12',
      '13',
      '14',
      '15',
      '16',
    ]);
    expect(visibleIds(world, caller(['r-dept'], '2'), S, STAFF)).toEqual(['11']);
    expect(visibleIds(world, caller(['r-below'], '2'), S, STAFF)).toEqual(['11', '12']);
    expect(visibleIds(world, caller(['r-below'], '1'), S, STAFF)).toEqual(['10', '11', '12', '13']);
    // custom: exactly the listed departments, not their children, whatever the caller's own department.
    expect(visibleIds(world, caller(['r-custom'], null), S, STAFF)).toEqual(['13', '14']);
    // self: what the caller created, and its own staff record (user_id).
    expect(visibleIds(world, caller(['r-self'], '5', { userId: '101', staffId: '16' }), S, STAFF)).toEqual([
      '11',
      '13',
      '16',
    ]);
  });

  it('takes the union over the roles that grant the resource, and nothing from others', () => {
    expect(visibleIds(world, caller(['r-dept', 'r-custom'], '4'), S, STAFF)).toEqual(['12', '13', '14']);
    // A disabled role grants nothing; a role without the page grants nothing of it.
    expect(mayRead(world, caller(['r-off'], '1'), S)).toBe(false);
    expect(visibleIds(world, caller(['r-off'], '1'), S, STAFF)).toEqual([]);
    expect(visibleIds(world, caller(['r-nostaff', 'r-dept'], '1'), S, STAFF)).toEqual(['10']);
    // No department: department scopes see nothing.
    expect(visibleIds(world, caller(['r-below'], null), S, STAFF)).toEqual([]);
  });

  it('scopes departments by their own id and subtree', () => {
    const D = oracleResource(departments);
    const rows = world.departments.map((d) => ({ id: d.id, created_by: null }));
    const reader = (scope: string, dept: string | null) => {
      const w: OracleWorld = {
        ...world,
        roles: [role('d', scope as OracleRole['dataScope'], { permissions: ['system.users.departments'] })],
      };
      return visibleIds(w, caller(['d'], dept), D, rows);
    };
    expect(reader('department_and_below', '2')).toEqual(['2', '4']);
    expect(reader('department', '2')).toEqual(['2']);
    expect(reader('all', null)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('sees everything as an admin, whatever its roles', () => {
    const admin = { ...caller(['r-self'], null), isAdmin: true };
    expect(visibleIds(world, admin, S, STAFF)).toHaveLength(STAFF.length);
    expect(fieldLevel(world, admin, S, 'phone')).toBe('write');
    expect(mayDo(world, admin, S, 'delete')).toBe(true);
  });

  it('gives each field the most permissive access over the granting roles', () => {
    expect(fieldLevel(world, caller(['r-below'], '1'), S, 'phone')).toBe('hidden');
    expect(fieldLevel(world, caller(['r-below'], '1'), S, 'email')).toBe('read');
    expect(fieldLevel(world, caller(['r-below'], '1'), S, 'name')).toBe('write');
    expect(fieldLevel(world, caller(['r-below', 'r-self'], '1'), S, 'phone')).toBe('read');
    expect(fieldLevel(world, caller(['r-below', 'r-all'], '1'), S, 'phone')).toBe('write');
    // A role that does not grant staff does not loosen staff fields; a disabled one neither.
    expect(fieldLevel(world, caller(['r-below', 'r-nostaff', 'r-off'], '1'), S, 'phone')).toBe('hidden');
    expect(
      effectiveFieldAccess(world, caller(['r-below', 'r-self'], '1'), [
        { r: S, fields: ['name', 'phone', 'email'] },
      ]),
    ).toEqual({ 'staff.phone': 'read' });
  });
});

function role(id: string, dataScope: OracleRole['dataScope'], more: Partial<OracleRole> = {}): OracleRole {
  return {
    id,
    enabled: true,
    permissions: ['system.users.staff', 'system.users.staff.update'],
    dataScope,
    departmentIds: [],
    fieldAccess: {},
    ...more,
  };
}

function caller(
  roleIds: string[],
  departmentId: string | null,
  ids: { userId?: string; staffId?: string } = {},
): OracleCaller {
  return {
    userId: ids.userId ?? '900',
    staffId: ids.staffId ?? '90',
    departmentId,
    isAdmin: false,
    roleIds,
  };
}
