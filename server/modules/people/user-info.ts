import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { ok } from '../../core/envelope.ts';
import { requireUser } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { effectiveFieldAccess } from '../../engine/field-access.ts';
import { servedResources } from '../../engine/served.ts';

const userInfoSchema = z.object({
  user_id: z.string(),
  staff_id: z.string().nullable(),
  is_admin: z.boolean(),
  /** The permission names the caller holds (the union over its enabled roles). */
  permissions: z.array(z.string()),
  /** The caller's restricted fields: `"<resource>.<field>"` -> `hidden` | `read`; `{}` for administrators. */
  field_access: z.record(z.string(), z.enum(['hidden', 'read'])),
});

/**
 * `GET v1/user/info`: what the screens need to follow the caller's access: its permission names and its
 * effective field access (server/engine/field-access.ts: the most permissive over the roles that grant each
 * resource, only restricted fields listed). Data scopes are not sent: the server applies them.
 */
export function registerUserInfoRoute(app: FastifyInstance): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/user/info',
    tags: ['account'],
    summary: "The caller's permission names and effective field access",
    access: requireUser,
    responses: { 200: userInfoSchema },
    handler: async ({ principal }) =>
      ok({
        user_id: principal.userId,
        staff_id: principal.staff?.id ?? null,
        is_admin: principal.staff?.isAdmin ?? false,
        permissions: [...principal.permissions].sort(),
        field_access: effectiveFieldAccess(principal, servedResources()),
      }),
  });
}
