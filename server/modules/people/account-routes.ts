import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { wireId, wireTime } from '../../../schemas/wire.ts';
import { actorOf } from '../../core/activity.ts';
import { writeActorActivity } from '../../engine/activity-log.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { answerJson, inputJson, pagedAnswerJson } from '../../core/openapi.ts';
import { pageOf, pageQuerySchema } from '../../core/paged.ts';
import { validate } from '../../core/validate.ts';
import { requirePermission, requireUser } from '../../core/principal.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { reissueInvitation, signInHistory } from './account-operations.ts';
import { redeemInvitation } from './invitations.ts';

const joinSchema = z.object({ invitation: z.string().trim().min(1).max(200) });
const idParam = inputJson(
  z.object({
    id: z
      .string()
      .regex(/^\d{1,19}$/)
      .optional(),
  }),
);
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
  app.post(
    '/api/v1/user/join',
    {
      schema: {
        tags: ['account'],
        summary: 'Join the staff invitation',
        body: inputJson(joinSchema),
        response: { 200: answerJson(z.object({ staff_id: wireId })) },
        'x-errors': [409],
      },
    },
    async (request) => {
      const principal = await requireUser(request);
      const { invitation } = validate(joinSchema, request.body);
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
  );

  app.post(
    '/api/v1/user/staff/:id/invitation',
    {
      schema: {
        tags: ['people'],
        summary: 'Re-issue the invitation link of an unregistered staff member',
        params: idParam,
        response: {
          200: answerJson(z.object({ invitation_url: z.string(), invitation_expires_at: wireTime })),
        },
        'x-errors': [409],
      },
    },
    async (request) => {
      const principal = await requirePermission(request, `${PERMISSION.usersStaff}.update`);
      const { id } = request.params as { id: string };
      const origin = publicOrigin ?? `${request.protocol}://${request.host}`;
      const issued = await reissueInvitation(db, { principal, staffId: id, origin });
      await audit(db, request, { action: 'staff.invitation', operatorId: principal.userId, subjectId: id });
      return ok(issued);
    },
  );

  app.get(
    '/api/v1/user/users/:id/logins',
    {
      schema: {
        tags: ['people'],
        summary: 'Sign-in history of one account (newest first)',
        params: idParam,
        querystring: inputJson(pageQuerySchema),
        response: { 200: pagedAnswerJson(signInSchema) },
      },
    },
    async (request) => {
      await requirePermission(request, PERMISSION.usersUsers);
      const { id } = request.params as { id: string };
      return ok(await signInHistory(db, { userId: id, ...pageOf(request.query) }));
    },
  );
}

async function audit(
  db: Queryable,
  request: FastifyRequest,
  { action, operatorId, subjectId }: { action: string; operatorId: string; subjectId: string },
): Promise<void> {
  await writeActorActivity(db, actorOf(request, operatorId), { action, subjectType: 'staff', subjectId });
}
