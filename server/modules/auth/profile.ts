import * as z from 'zod';
import { profileUpdateSchema } from '../../../schemas/auth.ts';
import { wireId } from '../../../schemas/wire.ts';
import { consumeCode } from '../../credentials/codes.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { requireUser } from '../../core/principal.ts';
import { roles } from '../../../resources/roles.ts';
import { staff as staffResource } from '../../../resources/staff.ts';
import { route, unchecked } from '../../core/route.ts';
import type { Queryable } from '../../db/index.ts';
import { asSystem, NOW } from '../../engine/system-access.ts';
import { recordActivity } from './activity.ts';
import { clientOf, type AuthScope } from './context.ts';
import { findUserById, takenFields, updateUser, type UserRow } from './users.ts';

const INCLUDES = new Set(['avatar', 'staff', 'staff.roles']);

/** The signed-in user as both profile routes answer it (`avatar` and `staff.roles` embed with include=). */
const profileSchema = z.object({
  id: wireId,
  username: z.string(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  phone: z.string().nullable().optional(),
  avatar: z.string().nullable().optional(),
  staff: z
    .object({
      id: wireId,
      is_admin: z.number().int(),
      department_id: z.string().nullable().optional(),
      roles: z
        .array(
          z.object({
            id: wireId,
            name: z.string(),
            permissions: z.object({ menu_ids: z.array(z.string()) }),
          }),
        )
        .optional(),
    })
    .nullable()
    .optional(),
});

/** `GET profile?include=avatar,staff.roles` and `POST profile` (name, avatar; email/phone with a `bind` code). */
export function registerProfileRoutes({ app, db }: AuthScope): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/user/profile',
    tags: ['account'],
    summary: 'The signed-in user; include=avatar and/or staff.roles embeds those',
    access: requireUser,
    // parseInclude reads it (a list joined by , or repeated).
    query: unchecked<{ include?: unknown }>(z.object({ include: z.string().optional() })),
    responses: { 200: profileSchema },
    handler: async ({ query, principal }) => {
      const include = parseInclude(query);
      const user = await findUserById(db, principal.userId);
      if (!user) throw AppError.unauthenticated();
      return ok(await presentProfile(db, { user, include }));
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/profile',
    tags: ['account'],
    summary: 'Update name and avatar; a new email or phone needs a code of the bind scene sent to it',
    errors: [409],
    access: requireUser,
    body: profileUpdateSchema,
    responses: { 200: profileSchema },
    handler: async ({ body, principal, request }) => {
      const user = await findUserById(db, principal.userId);
      if (!user) throw AppError.unauthenticated();

      const isEmailChanged = body.email !== undefined && body.email !== user.email?.toLowerCase();
      const isPhoneChanged = body.phone !== undefined && body.phone !== user.phone;
      if (isEmailChanged && isPhoneChanged) throw AppError.validation({ phone: ['auth.one_contact_change'] });
      if (isEmailChanged || isPhoneChanged) {
        const field = isEmailChanged ? 'email' : 'phone';
        const taken = await takenFields(db, { [field]: body[field], exceptId: user.id });
        if (taken[0]) throw AppError.conflict(taken[0], request.t(`auth.fields.${taken[0]}`));
        if (!body.captcha) throw AppError.validation({ captcha: ['validation.captcha_required'] });
        const target = isEmailChanged
          ? { channel: 'email' as const, to: body.email!, scene: 'bind' as const }
          : { channel: 'sms' as const, to: body.phone!, scene: 'bind' as const };
        if (!(await consumeCode(db, { target, code: body.captcha }))) {
          throw AppError.validation({ captcha: ['auth.captcha_invalid'] });
        }
      }
      // Only a file this user uploaded (or the avatar it already has): someone else's file and a missing
      // one get the same 422, so the field tells nobody which file ids exist.
      if (body.avatar && body.avatar !== user.avatar_id && !(await isOwnUpload(db, body.avatar, user.id))) {
        throw AppError.validation({ avatar: ['validation.invalid'] });
      }

      const next = {
        name: body.name ?? user.name,
        avatar_id: body.avatar === undefined ? user.avatar_id : body.avatar,
        email: isEmailChanged ? body.email! : user.email,
        phone: isPhoneChanged ? body.phone! : user.phone,
      };
      try {
        await updateUser(db, user.id, { ...next, updated_at: NOW });
      } catch (error) {
        if ((error as { code?: string }).code === '23505') {
          const field = isEmailChanged ? 'email' : 'phone';
          throw AppError.conflict(field, request.t(`auth.fields.${field}`));
        }
        throw error;
      }
      const changes = Object.fromEntries(
        (['name', 'avatar_id', 'email', 'phone'] as const)
          .filter((key) => (user[key] ?? null) !== (next[key] ?? null))
          .map((key) => [key, [user[key], next[key]]]),
      );
      if (Object.keys(changes).length > 0) {
        await recordActivity(db, {
          client: clientOf(request),
          action: 'auth.profile_updated',
          operatorId: user.id,
          subjectId: user.id,
          changes,
        });
      }
      const updated = (await findUserById(db, user.id))!;
      return ok(await presentProfile(db, { user: updated, include: new Set(['avatar']) }));
    },
  });
}

/** The profile shape of the contract; `avatar` and `staff` appear only when included. */
export async function presentProfile(
  db: Queryable,
  { user, include }: { user: UserRow; include: ReadonlySet<string> },
): Promise<Record<string, unknown>> {
  const profile: Record<string, unknown> = {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    phone: user.phone,
  };
  if (include.has('avatar')) {
    // A URL the client can put in an <img>, as the shell's identity expects; POST takes the asset id.
    profile.avatar = user.avatar_id ? `/api/v1/resources/assets/${user.avatar_id}/download` : null;
  }
  if (include.has('staff') || include.has('staff.roles')) {
    profile.staff = await loadStaff(db, { userId: user.id, withRoles: include.has('staff.roles') });
  }
  return profile;
}

async function loadStaff(db: Queryable, { userId, withRoles }: { userId: string; withRoles: boolean }) {
  const system = asSystem(db);
  const staff = await system.find<{ id: string; is_admin: number; department_id: string | null }>(
    staffResource,
    {
      where: { user_id: userId, state: true },
      columns: ['id', 'is_admin', 'department_id'],
    },
  );
  if (!staff) return null;
  const result: Record<string, unknown> = {
    id: staff.id,
    is_admin: Number(staff.is_admin),
    department_id: staff.department_id,
  };
  if (withRoles) {
    const links = await system.links(staffResource, { field: 'role_ids', ids: [String(staff.id)] });
    const held = await system.list<{ id: string; name: string; permissions: { menu_ids?: unknown } | null }>(
      roles,
      {
        where: { id: { in: links.map((l) => l.target) }, state: true },
        columns: ['id', 'name', 'permissions'],
        orderBy: [
          ['sort', 'asc'],
          ['id', 'asc'],
        ],
      },
    );
    result.roles = held.map((role) => ({
      id: role.id,
      name: role.name,
      permissions: { menu_ids: Array.isArray(role.permissions?.menu_ids) ? role.permissions.menu_ids : [] },
    }));
  }
  return result;
}

function parseInclude(query: { include?: unknown } | undefined): Set<string> {
  const raw = query?.include;
  if (raw === undefined || raw === '') return new Set();
  const parts = String(raw)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const unknown = parts.filter((part) => !INCLUDES.has(part));
  if (unknown.length > 0) throw AppError.validation({ include: ['validation.one_of'] });
  return new Set(parts);
}

/** Whether `userId` uploaded the file `id` (asset_uploaders, written by every upload). */
async function isOwnUpload(db: Queryable, id: string, userId: string): Promise<boolean> {
  if (!/^\d{1,18}$/.test(id)) return false;
  const { rows } = await db.query('SELECT 1 FROM asset_uploaders WHERE asset_id = $1 AND user_id = $2', [
    id,
    userId,
  ]);
  return rows.length > 0;
}
