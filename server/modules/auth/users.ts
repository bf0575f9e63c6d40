import { PHONE_PATTERN } from '../../../schemas/common.ts';
import type { Channel } from '../../../schemas/auth.ts';
import { users } from '../../../resources/users.ts';
import type { Queryable } from '../../db/index.ts';
import { asSystem, type Where } from '../../engine/system-access.ts';

export interface UserRow {
  id: string;
  username: string;
  name: string;
  email: string | null;
  phone: string | null;
  avatar_id: string | null;
  state: boolean;
  password_hash: string | null;
}

const COLUMNS = ['id', 'username', 'name', 'email', 'phone', 'avatar_id', 'state', 'password_hash'];

/** Finds a user by what they type on the sign-in form: an email (has `@`), a phone number, or a username. */
export async function findUserByIdentifier(db: Queryable, identifier: string): Promise<UserRow | null> {
  const value = identifier.trim();
  if (value.includes('@')) return findUser(db, { email: { ci: value } });
  if (PHONE_PATTERN.test(value)) return findUser(db, { phone: value });
  return findUser(db, { username: { ci: value } });
}

/** Finds a user by a code destination. */
export async function findUserByAddress(
  db: Queryable,
  { channel, to }: { channel: Channel; to: string },
): Promise<UserRow | null> {
  return findUser(db, channel === 'email' ? { email: { ci: to } } : { phone: to });
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  return findUser(db, { id });
}

/** Which of username / email / phone already belong to someone other than `exceptId`. */
export async function takenFields(
  db: Queryable,
  {
    username,
    email,
    phone,
    exceptId,
  }: { username?: string; email?: string; phone?: string; exceptId?: string },
): Promise<string[]> {
  const system = asSystem(db);
  const other = exceptId === undefined ? {} : { id: { not: exceptId } };
  const checks = [
    ['username', username === undefined ? null : { ci: username }],
    ['email', email === undefined ? null : { ci: email }],
    ['phone', phone ?? null],
  ] as const;
  const taken: string[] = [];
  for (const [field, condition] of checks)
    if (condition !== null && (await system.exists(users, { [field]: condition, ...other })))
      taken.push(field);
  return taken;
}

/** Sign-in and registration look accounts up before anyone is signed in: as the system. */
function findUser(db: Queryable, where: Where): Promise<UserRow | null> {
  return asSystem(db).find<UserRow>(users, { where, columns: COLUMNS });
}

/**
 * Writes columns of one account as the system (a new password hash, the last sign-in, the profile its owner
 * edits); the routes write their own activity rows. Unique columns still raise 23505 for the caller to map.
 */
export async function updateUser(db: Queryable, id: string, set: Record<string, unknown>): Promise<void> {
  await asSystem(db).update(users, { where: { id }, set });
}

/** Creates an account as the system (registration, WeChat sign-up); returns its id. */
export async function insertUser(
  db: Queryable,
  values: {
    username: string;
    name: string;
    email: string | null;
    phone: string | null;
    password_hash: string | null;
  },
): Promise<string> {
  const { id } = await asSystem(db).insert(users, values);
  return String(id);
}
