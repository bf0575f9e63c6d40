import * as z from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, USERNAME_PATTERN } from '../schemas/auth.ts';
import { email, phone } from '../schemas/common.ts';
import { PERMISSION } from '../schemas/permissions.ts';
import { defineResource, field } from './define.ts';

/**
 * Users (`v1/user/users`): every registered account. Administrators create accounts (the password is
 * hashed and never returned), disable them and set a new password (both revoke the account's tokens);
 * `GET v1/user/users/<id>/logins` lists the sign-in history. Rules live in server/modules/people.
 */
export const users = defineResource({
  name: 'users',
  endpoint: 'v1/user/users',
  permission: PERMISSION.usersUsers,
  schema: z.object({
    username: field(z.string().trim().regex(USERNAME_PATTERN, { message: 'auth.username_format' }), {
      search: 'like',
      sort: true,
      list: true,
      unique: true,
    }),
    name: field(z.string().trim().max(60).default(''), { search: 'like', sort: true, list: true }),
    email: field(email.nullable().optional(), { search: 'like', list: true, mask: 'email', unique: true }),
    phone: field(phone.nullable().optional(), { search: 'like', list: true, mask: 'phone', unique: true }),
    state: field(z.boolean().default(true), { search: '=', sort: true, list: true }),
    password: field(
      z
        .string()
        .min(PASSWORD_MIN, { message: 'validation.password_format' })
        .max(PASSWORD_MAX, { message: 'validation.password_format' })
        .optional(),
      {
        writeOnly: true,
        hash: 'argon2',
        column: 'password_hash',
        input: 'password',
      },
    ),
    last_login_at: field(z.iso.datetime().nullable().optional(), { readOnly: true, sort: true, list: true }),
  }),
  recordRepresentation: 'username',
  // Accounts have no department and are created by sign-up and invitations (no meaningful owner): the
  // staff record carries the scope.
  scope: false,
});
