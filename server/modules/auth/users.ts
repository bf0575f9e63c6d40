import { PHONE_PATTERN } from '../../../schemas/common.ts';
import type { Channel } from '../../../schemas/auth.ts';
import type { Queryable } from '../../db/index.ts';

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

const COLUMNS = 'id, username, name, email, phone, avatar_id, state, password_hash';

/** Finds a user by what they type on the sign-in form: an email (has `@`), a phone number, or a username. */
export async function findUserByIdentifier(db: Queryable, identifier: string): Promise<UserRow | null> {
  const value = identifier.trim();
  if (value.includes('@')) {
    return first(db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`, [value]));
  }
  if (PHONE_PATTERN.test(value)) {
    return first(db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE phone = $1`, [value]));
  }
  return first(db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE lower(username) = lower($1)`, [value]));
}

/** Finds a user by a code destination. */
export async function findUserByAddress(
  db: Queryable,
  { channel, to }: { channel: Channel; to: string },
): Promise<UserRow | null> {
  const sql =
    channel === 'email'
      ? `SELECT ${COLUMNS} FROM users WHERE lower(email) = lower($1)`
      : `SELECT ${COLUMNS} FROM users WHERE phone = $1`;
  return first(db.query<UserRow>(sql, [to]));
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  return first(db.query<UserRow>(`SELECT ${COLUMNS} FROM users WHERE id = $1`, [id]));
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
  const { rows } = await db.query<{ username: boolean; email: boolean; phone: boolean }>(
    `SELECT
       EXISTS (SELECT 1 FROM users WHERE $1::text IS NOT NULL AND lower(username) = lower($1) AND ($4::bigint IS NULL OR id <> $4::bigint)) AS username,
       EXISTS (SELECT 1 FROM users WHERE $2::text IS NOT NULL AND lower(email) = lower($2) AND ($4::bigint IS NULL OR id <> $4::bigint)) AS email,
       EXISTS (SELECT 1 FROM users WHERE $3::text IS NOT NULL AND phone = $3 AND ($4::bigint IS NULL OR id <> $4::bigint)) AS phone`,
    [username ?? null, email ?? null, phone ?? null, exceptId ?? null],
  );
  const row = rows[0]!;
  return (['username', 'email', 'phone'] as const).filter((field) => row[field]);
}

async function first<T>(query: Promise<{ rows: T[] }>): Promise<T | null> {
  const { rows } = await query;
  return rows[0] ?? null;
}
