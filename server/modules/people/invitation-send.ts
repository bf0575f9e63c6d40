import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { translate } from '../../../locales/index.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { wireTime } from '../../../schemas/wire.ts';
import { staff } from '../../../resources/staff.ts';
import { actorOf } from '../../core/activity.ts';
import type { AppContext } from '../../core/app-module.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { safeError } from '../../core/http.ts';
import { permission, route } from '../../core/route.ts';
import { getSettings } from '../../core/settings.ts';
import { createDbRateLimitStore } from '../../credentials/rate-limit-store.ts';
import { sha256 } from '../../credentials/tokens.ts';
import { writeActorActivity } from '../../engine/activity-log.ts';
import { asSystem } from '../../engine/system-access.ts';
import { resolveMailer } from '../../mail/mailer.ts';
import { maskPhone, resolveSmsProvider } from '../../sms/provider.ts';
import { rateLimited } from '../auth/index.ts';
import { reissueInvitation } from './account-operations.ts';
import { assertStaffInScope } from './guards.ts';
import { INVITATION_TTL_MS } from './invitations.ts';

/** Sends per staff record: an invitee's inbox is not a target, whoever holds the permission. */
export const INVITATION_SEND_LIMIT = { max: 5, timeWindow: 15 * 60_000 } as const;

const paramsSchema = z.object({ id: z.string().regex(/^\d{1,19}$/) });
const bodySchema = z.object({ channel: z.enum(['email', 'sms']) });
const answerSchema = z.object({
  invitation_url: z.string(),
  invitation_expires_at: wireTime,
  channel: z.enum(['email', 'sms']),
  sent_to: z.string(),
});

/**
 * `POST v1/user/staff/<id>/invitation/send` (issue 34, item 8): issues a new invitation link for an unregistered
 * staff member and sends it to the record's email or phone (the old link stops working, as with a re-issue).
 * Limited per staff record (INVITATION_SEND_LIMIT, shared by every server through the database) and audited as
 * `staff.invitation_sent` with the channel and the masked address.
 */
export async function registerInvitationSendRoute(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(async (scope) => {
    await scope.register(rateLimit, {
      global: false,
      store: createDbRateLimitStore(ctx.db),
      errorResponseBuilder: (_request, context) => rateLimited(context.ttl),
    });
    route(scope, {
      method: 'POST',
      url: '/api/v1/user/staff/:id/invitation/send',
      tags: ['people'],
      summary: "Send a new invitation link to an unregistered staff member's email or phone",
      errors: [409, 429],
      access: permission(`${PERMISSION.usersStaff}.update`),
      params: paramsSchema,
      body: bodySchema,
      config: {
        rateLimit: {
          ...INVITATION_SEND_LIMIT,
          keyGenerator: sendKey,
        },
      },
      responses: { 200: answerSchema },
      handler: async ({ params: { id }, body: { channel }, principal, request }) => {
        // Out of the caller's scope: a 404 before its contact details decide anything.
        await assertStaffInScope(ctx.db, principal, id);
        const contact = await asSystem(ctx.db).find<{ email: string | null; phone: string | null }>(staff, {
          where: { id },
          columns: ['email', 'phone'],
        });
        if (!contact) throw AppError.notFound();
        const to = channel === 'email' ? contact.email : contact.phone;
        if (!to) throw AppError.validation({ channel: [`settings.invite.errors.no_${channel}`] });
        // The channel is checked before a new link replaces the current one: a refused send issues nothing.
        const mailer = channel === 'email' ? await resolveMailer(ctx) : null;
        const sms = channel === 'sms' ? await resolveSmsProvider(ctx) : null;
        if (!mailer && !sms) throw new AppError(409, `settings.invite.errors.${channel}_not_set_up`);
        const origin = ctx.config.publicOrigin ?? `${request.protocol}://${request.host}`;
        const issued = await reissueInvitation(ctx.db, { principal, staffId: id, origin });
        const site = await getSettings(ctx.db, 'site');
        const params = {
          site_name: site.site_name,
          url: issued.invitation_url,
          days: INVITATION_TTL_MS / 86_400_000,
        };
        const locale = request.locale;
        try {
          if (mailer) {
            await mailer.send({
              to,
              subject: translate(locale, 'auth.invitation.mail_subject', params),
              text: translate(locale, 'auth.invitation.mail_body', params),
            });
          } else {
            const text = translate(locale, 'auth.invitation.sms_body', params);
            await sms?.send({ to, template: 'invitation', params: { url: issued.invitation_url }, text });
          }
        } catch (error) {
          ctx.log.warn({ err: safeError(error), channel, staffId: id }, 'invitation delivery failed');
          throw new AppError(409, 'settings.invite.errors.not_delivered');
        }
        const sentTo = channel === 'email' ? maskEmail(to) : maskPhone(to);
        await writeActorActivity(ctx.db, actorOf(request, principal.userId), {
          action: 'staff.invitation_sent',
          subjectType: 'staff',
          subjectId: id,
          changes: { channel, to: sentTo },
        });
        return ok({ ...issued, channel, sent_to: sentTo });
      },
    });
  });
}

/**
 * Per staff record and caller (the bearer token's hash, the address when there is none): the limit runs before
 * the permission check, so an anonymous caller must not use up the sends of the staff who may send.
 */
function sendKey(request: FastifyRequest): string {
  const id = (request.params as { id?: string }).id ?? '';
  const header = request.headers.authorization;
  const caller = header ? sha256(header) : `ip:${request.ip}`;
  return `invitation-send:${id}:${caller}`;
}

function maskEmail(address: string): string {
  const [local = '', domain = ''] = address.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}
