import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasOperation, type Resource } from '../../resources/define.ts';
import { ok } from '../core/envelope.ts';
import { readSettlingAuth, requirePermission } from '../core/principal.ts';
import type { Db } from '../db/index.ts';
import { permissionFor } from './access.ts';
import type { CsvJobs } from './csv/jobs.ts';
import { registerCsvRoutes } from './csv/routes.ts';
import type { ResourceHooksTable } from './hooks.ts';
import { fieldLabel } from './labels.ts';
import { routeSchemas } from './openapi.ts';
import { deleteRecords, updateRecords } from './write/bulk.ts';
import type { OperationContext } from './context.ts';
import { createRecord, deleteRecord, listRecords, readRecord, updateRecord } from './operations.ts';
import type { RawQuery } from './list/query.ts';

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
  const schemas = routeSchemas(resource, registry);
  const ctxOf = (request: FastifyRequest, through: Db = db): OperationContext => ({
    db: through,
    resource,
    registry,
    hooks,
    async authorize(action) {
      const principal = await requirePermission(request, permissionFor(resource, action));
      const ua = request.headers['user-agent'];
      return {
        userId: principal.userId,
        ip: request.ip,
        userAgent: typeof ua === 'string' ? ua : null,
        principal,
        origin: publicOrigin ?? `${request.protocol}://${request.host}`,
      };
    },
    label: (field) => fieldLabel(request, resource, field),
    lang: request,
  });
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  const queryOf = (request: FastifyRequest) => (request.query ?? {}) as RawQuery;

  const has = (operation: Parameters<typeof hasOperation>[1]) => hasOperation(resource, operation);

  if (has('list'))
    app.get(base, { schema: schemas.list }, async (request) =>
      ok(
        await readSettlingAuth(request, db, (through) =>
          listRecords(ctxOf(request, through), { query: queryOf(request) }),
        ),
      ),
    );
  if (has('create'))
    app.post(base, { schema: schemas.create }, async (request, reply) => {
      const record = await createRecord(ctxOf(request), { body: request.body, query: queryOf(request) });
      return reply.code(201).send(ok(record));
    });
  registerCsvRoutes(app, { db, base, resource, csvJobs, ctxOf, schemas });
  if (has('read'))
    app.get(`${base}/:id`, { schema: schemas.read }, async (request) =>
      ok(
        await readSettlingAuth(request, db, (through) =>
          readRecord(ctxOf(request, through), { id: idOf(request), query: queryOf(request) }),
        ),
      ),
    );
  if (has('update')) {
    app.patch(`${base}/:id`, { schema: schemas.update }, async (request) =>
      ok(
        await updateRecord(ctxOf(request), {
          id: idOf(request),
          body: request.body,
          query: queryOf(request),
        }),
      ),
    );
    app.patch(base, { schema: schemas.updateMany }, async (request) =>
      ok(await updateRecords(ctxOf(request), { ids: queryOf(request).ids, body: request.body })),
    );
  }
  if (has('delete')) {
    app.delete(`${base}/:id`, { schema: schemas.delete }, async (request) =>
      ok(await deleteRecord(ctxOf(request), { id: idOf(request) })),
    );
    app.delete(base, { schema: schemas.deleteMany }, async (request) =>
      ok(await deleteRecords(ctxOf(request), { ids: queryOf(request).ids })),
    );
  }
}
