import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasOperation, isSoftDelete, type Resource } from '../../resources/define.ts';
import { ok, okWithMeta } from '../core/envelope.ts';
import { idempotencyKeyOf, REPLAYED_HEADER } from '../core/idempotency.ts';
import { readSettlingAuth } from '../core/principal.ts';
import { route } from '../core/route.ts';
import type { Db } from '../db/index.ts';
import type { CsvJobs } from './csv/jobs.ts';
import { registerCsvRoutes } from './csv/routes.ts';
import type { ResourceHooksTable } from './hooks.ts';
import { idParams, lazyDoc, lazyRouteSchemas, routeDoc } from './openapi.ts';
import { deleteRecords, updateRecords } from './write/bulk.ts';
import type { OperationContext } from './context.ts';
import { requestContext } from './request-context.ts';
import { createRecord, deleteRecord, listRecords, readRecord, updateRecord } from './operations.ts';
import { listTrash, purgeTrashed, restoreTrashed } from './trash.ts';
import { recordHistory, restoreVersion } from './history.ts';
import { announcePresence } from './presence.ts';
import { actionDocs, runBulkAction, runRowAction } from './actions.ts';
import { actionsOf } from '../../resources/define.ts';

/**
 * Mounts the contract's routes (those in `operations`) for one resource. Thin: parse, call an operation, reply.
 * List and read change nothing, so they run through `readSettlingAuth`: a cached principal costs them no
 * extra round trip on PostgreSQL.
 * CSV export and import are csv/routes.ts; with `csvJobs`, large ones become background jobs (202).
 */
export function registerResourceRoutes(
  app: FastifyInstance,
  {
    db,
    resource,
    registry,
    hooks,
    csvJobs,
    publicOrigin = null,
  }: {
    db: Db;
    resource: Resource;
    registry: readonly Resource[];
    hooks: ResourceHooksTable;
    csvJobs?: CsvJobs;
    /** PUBLIC_ORIGIN: links the server writes (invitations) use it rather than the request's Host header. */
    publicOrigin?: string | null;
  },
): void {
  const base = `/api/${resource.endpoint}`;
  // Documents only (GET /api/docs): built with the OpenAPI document, not here.
  const schemas = lazyRouteSchemas(resource, registry, hooks);
  const ctxOf = (request: FastifyRequest, through: Db = db): OperationContext =>
    requestContext(request, { db: through, resource, registry, hooks, publicOrigin });
  const has = (operation: Parameters<typeof hasOperation>[1]) => hasOperation(resource, operation);

  if (has('list'))
    route(app, {
      method: 'GET',
      url: base,
      ...routeDoc(schemas.list),
      handler: async ({ query, request }) =>
        ok(
          await readSettlingAuth(request, db, (through) =>
            listRecords(ctxOf(request, through), { query: query ?? {} }),
          ),
        ),
    });
  if (has('create'))
    route(app, {
      method: 'POST',
      url: base,
      ...routeDoc(schemas.create),
      handler: async ({ query, body, request, reply }) => {
        const { record, replayed } = await createRecord(ctxOf(request), {
          body,
          query: query ?? {},
          idempotencyKey: idempotencyKeyOf(request),
        });
        if (replayed) reply.header(REPLAYED_HEADER, 'true');
        return reply.code(201).send(ok(record));
      },
    });
  registerCsvRoutes(app, { db, base, resource, csvJobs, ctxOf, schemas });
  if (has('read'))
    route(app, {
      method: 'GET',
      url: `${base}/:id`,
      ...routeDoc(schemas.read),
      params: idParams,
      handler: async ({ params, query, request }) =>
        ok(
          await readSettlingAuth(request, db, (through) =>
            readRecord(ctxOf(request, through), { id: params.id, query: query ?? {} }),
          ),
        ),
    });
  if (has('read'))
    route(app, {
      method: 'GET',
      url: `${base}/:id/history`,
      ...routeDoc(schemas.history),
      params: idParams,
      handler: async ({ params, query, request }) =>
        ok(await recordHistory(ctxOf(request), { id: params.id, query })),
    });
  if (has('read') && has('update'))
    route(app, {
      method: 'POST',
      url: `${base}/:id/presence`,
      ...routeDoc(schemas.presence),
      params: idParams,
      handler: async ({ params, body, request }) =>
        ok(await announcePresence(ctxOf(request), { id: params.id, body })),
    });
  if (has('update')) {
    route(app, {
      method: 'POST',
      url: `${base}/:id/restore`,
      ...routeDoc(schemas.restore),
      params: idParams,
      handler: async ({ params, body, request }) =>
        ok(await restoreVersion(ctxOf(request), { id: params.id, body })),
    });
    route(app, {
      method: 'PATCH',
      url: `${base}/:id`,
      ...routeDoc(schemas.update),
      params: idParams,
      handler: async ({ params, query, body, request }) =>
        ok(
          await updateRecord(ctxOf(request), {
            id: params.id,
            body,
            query: query ?? {},
            ifMatch: request.headers['if-match'],
          }),
        ),
    });
    route(app, {
      method: 'PATCH',
      url: base,
      ...routeDoc(schemas.updateMany),
      handler: async ({ query, body, request }) => {
        const { ids, operationId } = await updateRecords(ctxOf(request), { ids: query?.ids, body });
        return okWithMeta(ids, { operation_id: operationId });
      },
    });
  }
  if (has('delete')) {
    route(app, {
      method: 'DELETE',
      url: `${base}/:id`,
      ...routeDoc(schemas.delete),
      params: idParams,
      handler: async ({ params, query, request }) =>
        ok(await deleteRecord(ctxOf(request), { id: params.id, detach: query?.detach })),
    });
    route(app, {
      method: 'DELETE',
      url: base,
      ...routeDoc(schemas.deleteMany),
      handler: async ({ query, request }) => {
        const { ids, operationId } = await deleteRecords(ctxOf(request), { ids: query?.ids });
        return okWithMeta(ids, { operation_id: operationId });
      },
    });
  }
  // Row and bulk actions the resource declares (actions.ts), each under its own permission.
  if (has('read') && has('update'))
    for (const [key, action] of Object.entries(actionsOf(resource))) {
      const responses = (doc: Record<string, unknown>) =>
        doc.response as Record<number, Record<string, unknown>>;
      let built: ReturnType<typeof actionDocs> | undefined;
      const docs = () =>
        (built ??= actionDocs(resource, key, {
          record: responses(schemas.built().read)[200]!,
          stale: responses(schemas.built().update)[409]!,
        }));
      route(app, {
        method: 'POST',
        url: `${base}/:id/actions/${key}`,
        ...routeDoc(lazyDoc(() => docs().row)),
        params: idParams,
        handler: async ({ params, body, request }) =>
          ok(
            await runRowAction(ctxOf(request), {
              key,
              id: params.id,
              body,
              ifMatch: request.headers['if-match'],
            }),
          ),
      });
      if (action.bulk)
        route(app, {
          method: 'POST',
          url: `${base}/actions/${key}`,
          ...routeDoc(lazyDoc(() => docs().bulk)),
          handler: async ({ query, body, request }) =>
            ok(await runBulkAction(ctxOf(request), { key, ids: query?.ids, body })),
        });
    }
  // The trash (trash.ts): its list, a restore and a purge, for a resource that keeps one.
  if (has('delete') && isSoftDelete(resource)) {
    route(app, {
      method: 'GET',
      url: `${base}/trash`,
      ...routeDoc(schemas.trashList),
      handler: async ({ query, request }) => ok(await listTrash(ctxOf(request), { query: query ?? {} })),
    });
    route(app, {
      method: 'POST',
      url: `${base}/trash/:id/restore`,
      ...routeDoc(schemas.trashRestore),
      params: idParams,
      handler: async ({ params, request }) => ok(await restoreTrashed(ctxOf(request), { id: params.id })),
    });
    route(app, {
      method: 'DELETE',
      url: `${base}/trash/:id`,
      ...routeDoc(schemas.trashPurge),
      params: idParams,
      handler: async ({ params, request }) => ok(await purgeTrashed(ctxOf(request), { id: params.id })),
    });
  }
}
