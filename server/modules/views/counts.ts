import type { FastifyRequest } from 'fastify';
import { actorOf } from '../../core/activity.ts';
import { AppError } from '../../core/errors.ts';
import { can, type Principal } from '../../core/principal.ts';
import type { Db } from '../../db/index.ts';
import { permissionFor } from '../../engine/access.ts';
import type { OperationContext } from '../../engine/context.ts';
import { fieldLabel } from '../../engine/labels.ts';
import { listRecords } from '../../engine/operations.ts';
import { servedResources } from '../../engine/served.ts';
import { viewRows, type ViewsContext } from './operations.ts';
import type { ViewRow } from './store.ts';

/** Pinned views counted per call at most: the menu shows a handful. */
const MAX_COUNTED = 50;

type Count = number | { error: 'invalid_query'; message: string };

/**
 * `GET v1/user/views/counts`: the total of each of the caller's pinned views, counted by the engine's own
 * list operation as the caller (its read permission, data scope and field access), never by SQL built
 * here from the stored query. A query that no longer validates for this caller (a field removed from the
 * resource, or hidden from this caller) counts as an error value naming why, never a 5xx.
 */
export async function countPinnedViews(
  ctx: ViewsContext,
  { principal, request }: { principal: Principal; request: FastifyRequest },
): Promise<Record<string, Count>> {
  const pinned = (await viewRows(ctx, { principal })).filter((v) => v.pinned).slice(0, MAX_COUNTED);
  const counts: Record<string, Count> = {};
  for (const view of pinned) counts[view.id] = await countView(ctx, { principal, request, view });
  return counts;
}

async function countView(
  { db, hooks }: ViewsContext,
  { principal, request, view }: { principal: Principal; request: FastifyRequest; view: ViewRow },
): Promise<Count> {
  const resource = servedResources().find((r) => r.name === view.resource)!;
  const opCtx: OperationContext = {
    db: db as Db,
    resource,
    registry: servedResources(),
    hooks,
    async authorize(action) {
      if (!can(principal, permissionFor(resource, action))) throw AppError.forbidden();
      return { ...actorOf(request, principal.userId), principal };
    },
    label: (field) => fieldLabel(request, resource, field),
    lang: request,
  };
  try {
    const page = await listRecords(opCtx, { query: { ...view.query, size: '1' } });
    return page.meta.pagination.total;
  } catch (error) {
    if (error instanceof AppError && error.status === 422)
      return { error: 'invalid_query', message: messageOf(request, error) };
    throw error;
  }
}

/** What the list would have answered, in the caller's language: the field messages, else the error's. */
function messageOf(request: FastifyRequest, error: AppError): string {
  const fields = Object.values(error.fields ?? {}).flat();
  return fields.length
    ? fields.map((key) => request.t(key, error.params)).join('; ')
    : request.t(error.key, error.params);
}
