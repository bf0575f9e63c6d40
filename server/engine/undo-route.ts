import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as z from 'zod';
import type { Resource } from '../../resources/define.ts';
import { ok } from '../core/envelope.ts';
import { route, unchecked } from '../core/route.ts';
import type { Db } from '../db/index.ts';
import type { OperationContext } from './context.ts';
import { requestContext } from './request-context.ts';
import type { ResourceHooksTable } from './hooks.ts';
import { UNDO_DAYS, undoOperation } from './undo.ts';

export const UNDO_URL = '/api/v1/operations/:id/undo';

/** The answer of an undo, as the OpenAPI document names it. */
const undoResultSchema = z
  .object({
    reverted: z.array(z.string()).describe('ids of the records put back as they were'),
    skipped: z
      .array(
        z.object({
          id: z.string(),
          reason: z.string().describe("why it was left alone, in the request's language"),
        }),
      )
      .describe('records written since the operation, or that could not be reverted; left as they are'),
  })
  .meta({ 'x-name': 'UndoResult' });

/**
 * Per app, the resources each resources module serves, with that module's registry and hooks. Keyed by the app:
 * each module writes through a database of its own (the hook runtime's wrapper around the same one).
 */
const servedBy = new WeakMap<
  FastifyInstance,
  Map<string, { registry: readonly Resource[]; hooks: ResourceHooksTable }>
>();

/**
 * `POST v1/operations/<id>/undo` (undo.ts): mounted once per app, over the resources of every resources
 * module (a fixture's or a plug-in's too). Its permission depends on the operation (the one the operation
 * needed), so the operation checks it.
 */
export function registerUndoRoute(
  app: FastifyInstance,
  {
    db,
    registry,
    hooks,
    publicOrigin,
  }: { db: Db; registry: readonly Resource[]; hooks: ResourceHooksTable; publicOrigin: string | null },
): void {
  const known =
    servedBy.get(app) ?? new Map<string, { registry: readonly Resource[]; hooks: ResourceHooksTable }>();
  servedBy.set(app, known);
  for (const resource of registry) known.set(resource.name, { registry, hooks });
  if (app.hasRoute({ method: 'POST', url: UNDO_URL })) return;
  const contextFor =
    (request: FastifyRequest) =>
    (resource: Resource): OperationContext =>
      requestContext(request, {
        db,
        resource,
        registry: known.get(resource.name)?.registry ?? registry,
        hooks: known.get(resource.name)?.hooks ?? hooks,
        publicOrigin,
      });
  route(app, {
    method: 'POST',
    url: UNDO_URL,
    tags: ['engine'],
    operationId: 'undoOperation',
    summary: 'Undo a bulk call or an import',
    description:
      'Reverts every record the operation (`meta.operation_id` of a bulk PATCH/DELETE or an import) changed, ' +
      'created or deleted: updates get their old values back as a new version, deleted records come back ' +
      'from the trash, created ones go to the trash. Records written since the operation are left alone and ' +
      'listed in `skipped` with the reason. Needs the permission the operation needed; the operation of ' +
      `someone else is a 404 unless the caller is an administrator. Once (409 after), within ${UNDO_DAYS} ` +
      'days (409 after). Audited as `operations.undo`.',
    errors: [409],
    params: z.object({ id: z.string().regex(/^\d+$/).max(30) }),
    // Nothing to send: an empty object (or no body) is documented and ignored.
    body: unchecked(z.object({})),
    responses: { 200: undoResultSchema },
    handler: async ({ params, request }) =>
      ok(
        await undoOperation(
          {
            db,
            resourceNamed: (name) => known.get(name)?.registry.find((r) => r.name === name),
            contextFor: contextFor(request),
            lang: request,
          },
          { id: params.id },
        ),
      ),
  });
}
