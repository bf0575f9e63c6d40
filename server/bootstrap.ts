import { generatePassword, hashPassword } from './credentials/password.ts';
import { staff } from '../resources/staff.ts';
import { users } from '../resources/users.ts';
import type { Db } from './db/index.ts';
import { writeActivity } from './engine/activity-log.ts';
import { asSystem } from './engine/system-access.ts';

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
  if (await asSystem(db).exists(users, {})) return { created: false, generatedPassword: null };
  const plain = password ?? generatePassword();
  const passwordHash = await hashPassword(plain);
  const created = await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK]);
    const system = asSystem(tx);
    if (await system.exists(users, {})) return false;
    const user = await system.insert(users, { username, name: username, password_hash: passwordHash });
    const userId = String(user.id);
    const admin = await system.insert(staff, {
      user_id: userId,
      name: username,
      is_admin: 1,
      is_supervisor: true,
    });
    await writeActivity(tx, {
      action: 'system.bootstrap',
      subjectType: 'users',
      subjectId: userId,
      changes: { username: [null, username], staff_id: [null, admin.id] },
      operatorId: null,
      ip: null,
      userAgent: null,
    });
    return true;
  });
  return { created, generatedPassword: created && !password ? plain : null };
}
