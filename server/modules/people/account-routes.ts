import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { wireId, wireTime } from '../../../schemas/wire.ts';
import { actorOf } from '../../core/activity.ts';
import { writeActorActivity } from '../../engine/activity-log.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { pageOf, pageQuerySchema } from '../../core/paged.ts';
import { requireUser } from '../../core/principal.ts';
import { pagedOf, permission, route, unchecked } from '../../core/route.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { reissueInvitation, signInHistory } from './account-operations.ts';
import { redeemInvitation } from './invitations.ts';

const joinSchema = z.object({ invitation: z.string().trim().min(1).max(200) });
const idParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
});
/** A row of an account's sign-in history (sign-ins and refusals from the activity log). */
const signInSchema = z.object({
  id: wireId,
  action: z.string(),
  changes: z.unknown().optional(),
  ip: z.string().nullable().optional(),
  user_agent: z.string().nullable().optional(),
  created_at: wireTime,
});

/**
 * `POST v1/user/join` (the signed-in user takes the staff record an invitation names),
 * `POST v1/user/staff/<id>/invitation` (a new link for an unregistered record; the old one stops working)
 * and `GET v1/user/users/<id>/logins` (sign-in history from the activity log).
 */
/** `publicOrigin` (PUBLIC_ORIGIN) wins over the request's Host header in the links written. */
export function registerAccountRoutes(
  app: FastifyInstance,
  db: Db,
  publicOrigin: string | null = null,
): void {
  route(app, {
    method: 'POST',
    url: '/api/v1/user/join',
    tags: ['account'],
    summary: 'Join the staff invitation',
    errors: [409],
    access: requireUser,
    body: joinSchema,
    responses: { 200: z.object({ staff_id: wireId }) },
    handler: async ({ body: { invitation }, principal, request }) => {
      const result = await db.transaction((tx) =>
        redeemInvitation(tx, { token: invitation, userId: principal.userId }),
      );
      if ('error' in result) {
        if (result.error === 'already_staff') throw new AppError(409, 'settings.people.errors.already_staff');
        throw AppError.validation({ invitation: ['settings.people.errors.invitation_invalid'] });
      }
      await audit(db, request, {
        action: 'staff.join',
        operatorId: principal.userId,
        subjectId: result.staffId,
      });
      return ok({ staff_id: result.staffId });
    },
  });

  route(app, {
    method: 'POST',
    url: '/api/v1/user/staff/:id/invitation',
    tags: ['people'],
    summary: 'Re-issue the invitation link of an unregistered staff member',
    errors: [409],
    access: permission(`${PERMISSION.usersStaff}.update`),
    params: idParams,
    responses: { 200: z.object({ invitation_url: z.string(), invitation_expires_at: wireTime }) },
    handler: async ({ params: { id = '' }, principal, request }) => {
      const origin = publicOrigin ?? `${request.protocol}://${request.host}`;
      const issued = await reissueInvitation(db, { principal, staffId: id, origin });
      await audit(db, request, { action: 'staff.invitation', operatorId: principal.userId, subjectId: id });
      return ok(issued);
    },
  });

  route(app, {
    method: 'GET',
    url: '/api/v1/user/users/:id/logins',
    tags: ['people'],
    summary: 'Sign-in history of one account (newest first)',
    access: permission(PERMISSION.usersUsers),
    params: idParams,
    // Paging is lenient (pageOf: anything unreadable is the default).
    query: unchecked(pageQuerySchema),
    responses: { 200: pagedOf(signInSchema) },
    handler: async ({ params: { id = '' }, query }) =>
      ok(await signInHistory(db, { userId: id, ...pageOf(query) })),
  });
}

async function audit(
  db: Queryable,
  request: FastifyRequest,
  { action, operatorId, subjectId }: { action: string; operatorId: string; subjectId: string },
): Promise<void> {
  await writeActorActivity(db, actorOf(request, operatorId), { action, subjectType: 'staff', subjectId });
}
