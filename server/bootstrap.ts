import { generatePassword, hashPassword } from './credentials/password.ts';
import type { Db } from './db/index.ts';

const BOOTSTRAP_LOCK = 7_317_002;

/**
 * On an empty database, creates the first administrator: a user plus a staff record with is_admin 1.
 * Returns the generated password when none was configured (the caller prints it once), else null.
 */
export async function ensureFirstAdmin(
  db: Db,
  { username, password }: { username: string; password: string | null },
): Promise<{ created: boolean; generatedPassword: string | null }> {
  // Check before hashing: argon2 costs a few hundred milliseconds, and every start after the first finds
  // users already there. The locked transaction below re-checks, so two servers starting together are safe.
  const existing = await db.query('SELECT 1 FROM users LIMIT 1');
  if (existing.rows.length > 0) return { created: false, generatedPassword: null };
  const plain = password ?? generatePassword();
  const passwordHash = await hashPassword(plain);
  const created = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
    const { rows } = await tx.query('SELECT 1 FROM users LIMIT 1');
    if (rows.length > 0) return false;
    const user = await tx.query<{ id: string }>(
      `INSERT INTO users (username, name, password_hash) VALUES ($1, $1, $2) RETURNING id`,
      [username, passwordHash],
    );
    const userId = user.rows[0]!.id;
    const staff = await tx.query<{ id: string }>(
      `INSERT INTO staff (user_id, name, is_admin, is_supervisor) VALUES ($1, $2, 1, true) RETURNING id`,
      [userId, username],
    );
    await tx.query(
      `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id, changes)
       VALUES (NULL, 'system.bootstrap', 'users', $1, $2)`,
      [userId, JSON.stringify({ username: [null, username], staff_id: [null, staff.rows[0]!.id] })],
    );
    return true;
  });
  return { created, generatedPassword: created && !password ? plain : null };
}
