import { AppError } from '../core/errors.ts';
import { publishEvent } from '../events/hub.ts';
import type { OperationContext } from './context.ts';
import { audienceOf, rowScope } from './scope.ts';
import { fetchRecord } from './write/record-writes.ts';

/** How long a presence lasts without a heartbeat; the form repeats it well within (src/engine/form). */
export const PRESENCE_TTL_SECONDS = 45;

/**
 * `POST <path>/<id>/presence {state: 'editing' | 'left'}` (the update permission: only someone who may edit
 * the record has its edit form open, a reader gets the show view; 404 out of scope): tells the others who
 * may see the record that the caller has its edit form open, or closed it. A live event of type
 * `presence` (`{ resource, id, state, user_id, name, ttl_seconds }`) over the event stream, so it crosses
 * servers with LISTEN/NOTIFY and reaches only streams whose scope holds the record, like a record event.
 * Nothing is stored: an `editing` without a heartbeat lapses after `ttl_seconds`.
 */
export async function announcePresence(
  ctx: OperationContext,
  { id, body }: { id: string; body: unknown },
): Promise<null> {
  const actor = await ctx.authorize('update');
  const state = (body as { state?: unknown } | null)?.state ?? 'editing';
  if (state !== 'editing' && state !== 'left') throw AppError.validation({ state: ['validation.invalid'] });
  const scope = await rowScope(ctx.db, ctx.resource, actor.principal);
  await fetchRecord(ctx, { db: ctx.db, id, scope, viewer: actor.principal });
  const { rows } = await ctx.db.query<{ name: string; username: string }>(
    'SELECT "name", "username" FROM "users" WHERE "id" = $1',
    [actor.userId],
  );
  const name = rows[0]?.name || rows[0]?.username || '';
  const records = await audienceOf(ctx.db, ctx.resource, [id]);
  await publishEvent(ctx.db, {
    type: 'presence',
    data: {
      resource: ctx.resource.name,
      id,
      state,
      user_id: actor.userId,
      name,
      ttl_seconds: PRESENCE_TTL_SECONDS,
    },
    permission: ctx.resource.permission,
    ...(records ? { records } : {}),
  });
  return null;
}
