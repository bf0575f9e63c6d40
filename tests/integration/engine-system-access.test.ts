import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../resources/activities.ts';
import { departments } from '../../resources/departments.ts';
import { roles } from '../../resources/roles.ts';
import { staff } from '../../resources/staff.ts';
import { users } from '../../resources/users.ts';
import type { Db } from '../../server/db/index.ts';
import { asSystem, NOW } from '../../server/engine/system-access.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * The seam modules read and write the engine's tables through (server/engine/system-access.ts), on a real
 * migrated database: each condition, the tree and join-table helpers and the writes.
 */
let t: TestDb;
let db: Db;
beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
});
afterAll(() => t.drop());

describe('asSystem', () => {
  it('finds and lists by value, case-insensitive, null, not, in, among and or', async () => {
    const system = asSystem(db);
    const ann = await system.insert(users, { username: 'Ann', name: 'Ann', email: 'Ann@Example.com' });
    const bob = await system.insert(users, { username: 'bob', name: 'Bob B', phone: '13800000001' });
    await system.insert(activities, { action: 'x.test', subject_type: 'users', operator_id: bob.id });
    const id = (r: Record<string, unknown> | null) => (r ? String(r.id) : null);

    expect(id(await system.find(users, { where: { email: { ci: 'ann@example.COM' } } }))).toBe(
      String(ann.id),
    );
    expect(id(await system.find(users, { where: { username: 'ann' } }))).toBeNull();
    const withoutEmail = await system.list(users, { where: { email: null, id: { in: [ann.id, bob.id] } } });
    expect(withoutEmail.map(id)).toEqual([String(bob.id)]);
    const others = await system.list(users, {
      where: { id: { in: [ann.id, bob.id] }, email: { not: null } },
    });
    expect(others.map(id)).toEqual([String(ann.id)]);
    expect(await system.list(users, { where: { id: { in: [] } } })).toEqual([]);
    const acted = await system.list(users, {
      where: { id: { among: { resource: activities, column: 'operator_id', where: { action: 'x.test' } } } },
    });
    expect(acted.map(id)).toEqual([String(bob.id)]);
    const either = await system.list(users, {
      where: { or: [{ username: { like: '%nn%' } }, { name: { like: 'bob%' } }] },
      columns: ['username'],
      orderBy: [['username', 'desc']],
    });
    expect(either).toEqual([{ username: 'bob' }, { username: 'Ann' }]);
    expect(await system.exists(users, { phone: '13800000001', id: { not: bob.id } })).toBe(false);
    expect(await system.count(activities, { action: { startsWith: 'x.' } })).toBe(1);
    expect(await system.count(activities, { action: { startsWith: 'x_' } })).toBe(0);
  });

  it('walks a tree both ways, reads join tables, and counts per day', async () => {
    const system = asSystem(db);
    const top = await system.insert(departments, { name: 'Top', parent_id: '0' });
    const mid = await system.insert(departments, { name: 'Mid', parent_id: top.id });
    const leaf = await system.insert(departments, { name: 'Leaf', parent_id: mid.id });
    const down = await system.treeIds(departments, { ids: [String(top.id)], direction: 'down' });
    expect(down.sort()).toEqual([top.id, mid.id, leaf.id].map(String).sort());
    const up = await system.treeIds(departments, { ids: [String(leaf.id)], direction: 'up' });
    expect(up.sort()).toEqual([top.id, mid.id, leaf.id].map(String).sort());

    const role = await system.insert(roles, {
      name: 'Seam role',
      permissions: JSON.stringify({ menu_ids: [] }),
    });
    const person = await system.insert(staff, { name: 'Seam person' });
    await db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [person.id, role.id]);
    const link = { owner: String(person.id), target: String(role.id) };
    expect(await system.links(staff, { field: 'role_ids', ids: [String(person.id)] })).toEqual([link]);
    expect(await system.links(staff, { field: 'role_ids', ids: [String(role.id)], by: 'target' })).toEqual([
      link,
    ]);

    await system.insert(activities, { action: 'x.day', subject_type: 'users' });
    const days = await system.countPerDay(activities, { where: { action: 'x.day' }, days: 3 });
    expect(days.map((d) => d.count)).toEqual([0, 0, 1]);
    expect(days.map((d) => d.day)).toEqual([...days.map((d) => d.day)].sort());
  });

  it('updates with the database clock, and removes in batches', async () => {
    const system = asSystem(db);
    const user = await system.insert(users, { username: 'clock', name: 'Clock' });
    expect(
      await system.update(users, { where: { id: user.id }, set: { last_login_at: NOW, name: 'Ticked' } }),
    ).toBe(1);
    const row = await system.find<{ name: string; last_login_at: Date | null }>(users, {
      where: { id: user.id },
    });
    expect(row?.name).toBe('Ticked');
    expect(row?.last_login_at).toBeInstanceOf(Date);
    const locked = await db.transaction((tx) =>
      asSystem(tx).find(users, { where: { id: user.id }, lock: true }),
    );
    expect(locked).not.toBeNull();

    for (let i = 0; i < 5; i += 1)
      await system.insert(activities, { action: 'x.gone', subject_type: 'users' });
    expect(await system.remove(activities, { where: { action: 'x.gone' }, limit: 2 })).toBe(2);
    expect(await system.remove(activities, { where: { action: 'x.gone' } })).toBe(3);
  });
});
