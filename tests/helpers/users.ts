import crypto from 'node:crypto';
import { issueToken } from '../../server/credentials/tokens.ts';
import type { Queryable } from '../../server/db/index.ts';

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
