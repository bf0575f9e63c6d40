import crypto from 'node:crypto';
import { issueToken } from '../../server/credentials/tokens.ts';
import type { Queryable } from '../../server/db/index.ts';
import type { TestApp } from './app.ts';

export interface TestUser {
  userId: string;
  staffId: string | null;
  token: string;
}

/**
 * Inserts a user (optionally a staff member holding a role with `permissions`) straight into the database
 * and issues a token, for permission tests. Example:
 * `const clerk = await createUser(t.db, { staff: { permissions: ['system.users.staff'] } })`.
 */
export async function createUser(
  db: Queryable,
  { staff, username }: { staff?: { permissions?: string[]; isAdmin?: boolean }; username?: string } = {},
): Promise<TestUser> {
  const name = username ?? `u_${crypto.randomBytes(4).toString('hex')}`;
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (username, name) VALUES ($1, $1) RETURNING id`,
    [name],
  );
  const userId = user.rows[0]!.id;
  let staffId: string | null = null;
  if (staff) {
    const row = await db.query<{ id: string }>(
      `INSERT INTO staff (user_id, name, is_admin) VALUES ($1, $2, $3) RETURNING id`,
      [userId, name, staff.isAdmin ? 1 : 0],
    );
    staffId = row.rows[0]!.id;
    if (staff.permissions?.length) {
      const role = await db.query<{ id: string }>(
        `INSERT INTO roles (name, permissions) VALUES ($1, $2) RETURNING id`,
        [`role_${name}`, JSON.stringify({ menu_ids: staff.permissions })],
      );
      await db.query(`INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)`, [
        staffId,
        role.rows[0]!.id,
      ]);
    }
  }
  const { accessToken } = await issueToken(db, { userId, remember: false });
  return { userId, staffId, token: accessToken };
}

/**
 * A role saved through the role editor's own call (`POST v1/user/roles`, so the server's catalogue checks
 * apply), then a new staff member holding it. Example:
 * `const writer = await staffWithRole(t, admin, ['system.settings', 'system.settings.general'])`.
 */
export async function staffWithRole(
  t: { request: TestApp['request']; db: Queryable },
  adminToken: string,
  menuIds: string[],
): Promise<TestUser> {
  const role = await t.request({
    method: 'POST',
    url: '/api/v1/user/roles',
    token: adminToken,
    payload: { name: `role ${crypto.randomUUID()}`, permissions: { menu_ids: menuIds } },
  });
  if (role.statusCode !== 201) throw new Error(`role not saved: ${role.statusCode} ${role.body}`);
  const user = await createUser(t.db, { staff: {} });
  await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [
    user.staffId,
    role.json().data.id,
  ]);
  return user;
}
