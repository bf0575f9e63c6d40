import * as z from 'zod';
import { actionsOf, type Resource, type ResourceAction } from '../../resources/define.ts';
import { AppError } from '../core/errors.ts';
import { envelope } from '../core/openapi.ts';
import { validate } from '../core/validate.ts';
import type { Queryable } from '../db/index.ts';
import type { OperationContext } from './context.ts';
import { assertWritable } from './field-access.ts';
import { schemaStem } from './openapi.ts';
import { expectedVersionOf, validateBody } from './operations.ts';
import { rowScope } from './scope.ts';
import type { Actor } from './write/audit.ts';
import { lockAll, MAX_BULK_IDS, parseBulkIds } from './write/bulk.ts';
import { publishChanges, publishManyChanged } from './write/record-events.ts';
import { fetchRecord, patchRecord, StaleVersion } from './write/record-writes.ts';
import type { WireRecord } from './list/wire.ts';

type JsonSchema = Record<string, unknown>;

/**
 * Row and bulk actions declared on a resource (resources/define.ts `actions`). Each run is one transaction
 * in the order of every engine write: permission `<permission>.<key>` -> input validated with the action's
 * schema -> the record read FOR UPDATE within the caller's data scope (404 outside it) -> version check
 * (409 with the current record) -> the handler -> its fields written through the update path (field access,
 * hooks, unique checks, audit row named `<resource>.<key>`) -> live events after commit.
 */

/** `POST <path>/<id>/actions/<key>` with `{ version?, input? }`: the record as the caller sees it after. */
export async function runRowAction(
  ctx: OperationContext,
  { key, id, body, ifMatch }: { key: string; id: string; body: unknown; ifMatch?: string | undefined },
): Promise<WireRecord> {
  const action = declared(ctx.resource, key);
  const actor = await ctx.authorize(`action:${key}`);
  const input = inputOf(action, body);
  const expectedVersion = expectedVersionOf(body, ifMatch);
  try {
    await ctx.db.transaction((tx) =>
      applyAction(ctx, { tx, id, action, key, input, actor, expectedVersion }),
    );
  } catch (error) {
    if (!(error instanceof StaleVersion)) throw error;
    const current = await readAs(ctx, id, actor);
    throw new AppError(error.status, error.key, { fields: error.fields, data: current });
  }
  await publishChanges(ctx.db, [{ resource: ctx.resource, id, action: 'update' }], actor);
  return readAs(ctx, id, actor);
}

/**
 * `POST <path>/actions/<key>?ids=1,2,3` with `{ input? }` (`bulk: true` actions): the action on every listed
 * record in one transaction, all or nothing; 404 naming the ids missing or out of scope. `data` is the ids.
 */
export async function runBulkAction(
  ctx: OperationContext,
  { key, ids: rawIds, body }: { key: string; ids: unknown; body: unknown },
): Promise<string[]> {
  const action = declared(ctx.resource, key);
  const actor = await ctx.authorize(`action:${key}`);
  const ids = parseBulkIds(rawIds);
  const input = inputOf(action, body);
  await ctx.db.transaction(async (tx) => {
    for (const id of await lockAll(ctx, tx, ids, actor))
      await applyAction(ctx, { tx, id, action, key, input, actor, expectedVersion: null });
  });
  await publishManyChanged(ctx.db, { resource: ctx.resource, action: 'update', ids, actor });
  return ids;
}

/**
 * The OpenAPI entries of one action: the row call, the bulk call, and the input's named schema. `answers` are
 * the read's 200 and the update's 409 (the stale version's, with the current record) of routeSchemas.
 */
export function actionDocs(
  resource: Resource,
  key: string,
  answers: { record: JsonSchema; stale: JsonSchema },
): { row: JsonSchema; bulk: JsonSchema } {
  const action = declared(resource, key);
  const stem = `${schemaStem(resource)}${schemaStem({ name: key } as Resource)}`;
  const { $schema: _drop, ...json } = z.toJSONSchema(action.input ?? z.object({}), {
    io: 'input',
    unrepresentable: 'any',
    target: 'openapi-3.0',
  }) as JsonSchema;
  const input: JsonSchema = { ...json, 'x-name': `${stem}Input` };
  const permission = `${resource.permission}.${key}`;
  const common = { tags: [resource.name], 'x-errors': [409] };
  return {
    row: {
      ...common,
      summary: `Run the action ${key} on a ${resource.name} record`,
      description: `Needs the permission \`${permission}\`. With \`version\` the action runs only on that version (409 with \`data\` = the current record otherwise).`,
      operationId: `action${stem}`,
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { version: { type: 'integer', minimum: 1 }, input },
      },
      response: { 200: answers.record, 409: answers.stale },
    },
    bulk: {
      ...common,
      summary: `Run the action ${key} on several ${resource.name} records`,
      description: `Needs the permission \`${permission}\`. All or nothing; 404 naming the ids not found.`,
      operationId: `bulkAction${stem}`,
      querystring: {
        type: 'object',
        required: ['ids'],
        properties: {
          ids: { type: 'string', description: `Comma-separated record ids (at most ${MAX_BULK_IDS})` },
        },
      },
      body: { type: 'object', additionalProperties: false, properties: { input } },
      response: { 200: envelope({ type: 'array', items: { type: 'string' } }) },
    },
  };
}

async function applyAction(
  ctx: OperationContext,
  {
    tx,
    id,
    action,
    key,
    input,
    actor,
    expectedVersion,
  }: {
    tx: Queryable;
    id: string;
    action: ResourceAction;
    key: string;
    input: unknown;
    actor: Actor;
    expectedVersion: number | null;
  },
): Promise<void> {
  const scope = await rowScope(tx, ctx.resource, actor.principal);
  const record = await fetchRecord(ctx, { db: tx, id, forUpdate: true, scope, viewer: actor.principal });
  if (expectedVersion !== null && record.version !== expectedVersion) throw new StaleVersion();
  const fields = (await action.handler({ record, input, userId: actor.userId, tx })) ?? {};
  assertWritable(actor.principal, ctx.resource, ctx.registry, fields);
  const data = validateBody(ctx, 'update', fields);
  await patchRecord(ctx, { tx, id, data, actor, expectedVersion, auditAction: key });
}

function declared(resource: Resource, key: string): ResourceAction {
  const actions = actionsOf(resource);
  if (!Object.hasOwn(actions, key)) throw AppError.notFound();
  return actions[key]!;
}

/** The body's `input`, validated with the action's schema (422 naming its fields). */
function inputOf(action: ResourceAction, body: unknown): unknown {
  const given = body && typeof body === 'object' && 'input' in body ? body.input : undefined;
  return validate(action.input ?? z.object({}), given ?? {});
}

async function readAs(ctx: OperationContext, id: string, actor: Actor): Promise<WireRecord> {
  const scope = await rowScope(ctx.db, ctx.resource, actor.principal);
  return fetchRecord(ctx, { db: ctx.db, id, scope, viewer: actor.principal });
}
