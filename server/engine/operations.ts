import { bodySchemas, inlineLists, type InlineList } from '../../resources/inline-lists.ts';
import { withoutSystemKeys } from '../../resources/write.ts';
import type { CursorPagination, Paged } from '../../schemas/pagination.ts';
import { AppError } from '../core/errors.ts';
import { claimIdempotencyKey, Replayed } from '../core/idempotency.ts';
import { paged } from '../core/paged.ts';
import { validate } from '../core/validate.ts';
import type { Actor } from './write/audit.ts';
import type { OperationContext } from './context.ts';
import { assertWritable, hiddenFields } from './field-access.ts';
import { hooksOf } from './hooks.ts';
import { assertIncludesReadable } from './list/include-access.ts';
import { readableLists, splitInline, writeInlineLists } from './write/inline-writes.ts';
import { inlineWriter } from './write/inline-history.ts';
import { readPage } from './list/paging.ts';
import { parseListQuery, type RawQuery } from './list/query.ts';
import { listContext } from './list/related.ts';
import { publishChanges, type RecordChange } from './write/record-events.ts';
import {
  fetchRecord,
  insertRecord,
  patchRecord,
  removeRecord,
  StaleVersion,
  withUsersCounted,
} from './write/record-writes.ts';
import { loadRecords } from './list/records.ts';
import type { WireRecord } from './list/wire.ts';
import { rowScope, scopeList } from './scope.ts';

/**
 * The engine's operations on one resource, each a pipeline in the same order: authorize -> validate ->
 * write (each record's audit row is written in the same transaction, record-writes.ts) -> publish the live
 * events after commit -> answer. Routes (routes.ts) only parse and call these; the many-record calls are
 * bulk.ts, CSV export and import export.ts and import.ts.
 */

/** One page of a resource's list: the records and the meta with `next_cursor` (schemas/pagination.ts). */
export type ListResult = Paged<WireRecord, object, CursorPagination>;

/** `GET <path>`: one page of the list (filters, sort, includes of the contract's query language). */
export async function listRecords(
  ctx: OperationContext,
  { query }: { query: RawQuery },
): Promise<ListResult> {
  const actor = await ctx.authorize('read');
  const { db, resource } = ctx;
  const context = await listContext(db, {
    resource,
    registry: ctx.registry,
    principal: actor.principal,
    locale: ctx.lang?.locale,
  });
  const q = parseListQuery(resource, query, {
    filters: hooksOf(ctx.hooks, resource).filters,
    hidden: hiddenFields(actor.principal, resource),
    context,
  });
  assertIncludesReadable(resource, ctx.registry, actor.principal, q.includes);
  const scope = await rowScope(db, resource, actor.principal);
  const page = await readPage(db, resource, scopeList(resource, q, scope));
  const data = await loadRecords(db, { ...ctx, viewer: actor.principal }, page.rows, q.includes);
  return paged(data, {
    total: page.total,
    page: page.currentPage,
    size: q.size,
    isEstimate: page.isEstimate,
    isCapped: page.isCapped,
    nextCursor: page.nextCursor,
  });
}

/** `GET <path>/<id>`: one record, with the relations `include` names. */
export async function readRecord(
  ctx: OperationContext,
  { id, query = {} }: { id: string; query?: RawQuery },
): Promise<WireRecord> {
  const actor = await ctx.authorize('read');
  const includes = readableIncludes(ctx, actor, query);
  const scope = await rowScope(ctx.db, ctx.resource, actor.principal);
  return fetchRecord(ctx, { db: ctx.db, id, includes, scope, viewer: actor.principal });
}

/**
 * `POST <path>`: creates a record, and the items of its inline has-many lists (resources/inline-lists.ts) in
 * the same transaction. The answer embeds the inline lists and the relations `include` names. With an
 * `idempotencyKey` (core/idempotency.ts) a retry of a create that was applied answers that record
 * (`replayed`) instead of creating another.
 */
export async function createRecord(
  ctx: OperationContext,
  {
    body,
    query = {},
    idempotencyKey = null,
  }: { body: unknown; query?: RawQuery; idempotencyKey?: string | null },
): Promise<{ record: WireRecord; replayed: boolean }> {
  const actor = await ctx.authorize('create');
  assertWritable(actor.principal, ctx.resource, ctx.registry, body, 'create');
  const asked = readableIncludes(ctx, actor, query);
  const lists = inlineLists(ctx.resource, ctx.registry);
  const { own, children } = splitInline(validateBody(ctx, 'create', body), lists);
  const extras: Record<string, unknown> = {};
  const written: RecordChange[] = [];
  let id: string;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const bind = idempotencyKey
        ? await claimIdempotencyKey(tx, {
            userId: actor.userId,
            key: idempotencyKey,
            target: ctx.resource.name,
          })
        : null;
      const newId = await insertRecord(ctx, { tx, data: own, actor, extras });
      written.push(...(await writeInlineLists(ctx, { tx, parentId: newId, children, actor, isNew: true })));
      await bind?.(newId);
      return newId;
    });
  } catch (error) {
    if (!(error instanceof Replayed)) throw error;
    return { record: await answer(ctx, { id: error.recordId, lists, actor, asked }), replayed: true };
  }
  await publishChanges(ctx.db, [{ resource: ctx.resource, id, action: 'create' }, ...written], actor);
  return { record: { ...(await answer(ctx, { id, lists, actor, asked })), ...extras }, replayed: false };
}

/**
 * `PATCH <path>/<id>`: partial update; a given inline has-many list replaces that set of children, in the
 * same transaction (the parent's version bumps with them). The answer embeds the inline lists and the
 * relations `include` names. A `version` (body, or `If-Match: "<n>"`) that is not the current one is a 409
 * whose `data` is the current record as the caller may see it, and nothing is written.
 */
export async function updateRecord(
  ctx: OperationContext,
  {
    id,
    body,
    query = {},
    ifMatch,
  }: { id: string; body: unknown; query?: RawQuery; ifMatch?: string | undefined },
): Promise<WireRecord> {
  const actor = await ctx.authorize('update');
  assertWritable(actor.principal, ctx.resource, ctx.registry, body);
  const expectedVersion = expectedVersionOf(body, ifMatch);
  const asked = readableIncludes(ctx, actor, query);
  const lists = inlineLists(ctx.resource, ctx.registry);
  const { own, children } = splitInline(validateBody(ctx, 'update', body), lists);
  const extras: Record<string, unknown> = {};
  const written: RecordChange[] = [];
  try {
    await withUsersCounted(ctx, async () => {
      await ctx.db.transaction(async (tx) => {
        const inline = inlineWriter(ctx, { tx, parentId: id, children, actor, written });
        await patchRecord(ctx, { tx, id, data: own, actor, extras, expectedVersion, inline });
      });
    });
  } catch (error) {
    if (!(error instanceof StaleVersion)) throw error;
    const current = await answer(ctx, { id, lists, actor, asked });
    throw new AppError(error.status, error.key, { fields: error.fields, data: current });
  }
  await publishChanges(ctx.db, [{ resource: ctx.resource, id, action: 'update' }, ...written], actor);
  return { ...(await answer(ctx, { id, lists, actor, asked })), ...extras };
}

/**
 * `DELETE <path>/<id>`: to the trash for a soft-delete resource, else gone; 409 naming who still uses the
 * record. `detach=1` lets a resource's hook release the holders first (roles: removed from their staff).
 */
export async function deleteRecord(
  ctx: OperationContext,
  { id, detach }: { id: string; detach?: unknown },
): Promise<null> {
  const actor = await ctx.authorize('delete');
  const isDetach = detach === '1' || detach === 'true';
  const before = await withUsersCounted(ctx, () =>
    ctx.db.transaction((tx) => removeRecord(ctx, { tx, id, actor, detach: isDetach })),
  );
  await publishChanges(ctx.db, [{ resource: ctx.resource, id, action: 'delete', before }], actor);
  return null;
}

/**
 * Validates a create or update body with the resource's write schema (inline lists included); on update
 * only the keys the body gives are kept (a partial update). 422 with field messages otherwise.
 */
export function validateBody(
  ctx: Pick<OperationContext, 'resource' | 'registry'>,
  kind: 'create' | 'update',
  body: unknown,
): Record<string, unknown> {
  const input = withoutSystemKeys(body);
  const parsed = validate(bodySchemas(ctx.resource, ctx.registry)[kind], input) as Record<string, unknown>;
  if (kind === 'create') return parsed;
  return Object.fromEntries(Object.entries(parsed).filter(([k]) => k in (input as object)));
}

/**
 * The version a PATCH writes over: `version` in the body, else `If-Match: "<n>"` (also `W/"<n>"` or a bare
 * number); null when neither says (the write applies, for scripts). Anything else is a 422 naming `version`.
 */
export function expectedVersionOf(body: unknown, ifMatch: string | undefined): number | null {
  const given =
    body && typeof body === 'object' && !Array.isArray(body) && 'version' in body
      ? (body as { version: unknown }).version
      : ifMatch !== undefined && ifMatch.trim() !== '*'
        ? ifMatch
            .trim()
            .replace(/^W\//, '')
            .replace(/^"(.*)"$/, '$1')
        : undefined;
  if (given === undefined || given === null) return null;
  const version = typeof given === 'string' && /^\d{1,9}$/.test(given) ? Number(given) : given;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1 || version > 2147483647)
    throw new AppError(422, 'engine.version.bad', { fields: { version: ['engine.version.bad_short'] } });
  return version;
}

/** The relations `include=a,b` asks to embed (read, create, update), each readable by the caller (403). */
function readableIncludes(ctx: OperationContext, actor: Actor, query: RawQuery): string[] {
  const { includes } = parseListQuery(
    ctx.resource,
    { include: query.include },
    { hidden: hiddenFields(actor.principal, ctx.resource) },
  );
  assertIncludesReadable(ctx.resource, ctx.registry, actor.principal, includes);
  return includes;
}

/** A create/update answer: the record with its readable inline lists and the asked relations. */
async function answer(
  ctx: OperationContext,
  { id, lists, actor, asked }: { id: string; lists: readonly InlineList[]; actor: Actor; asked: string[] },
): Promise<WireRecord> {
  const includes = [...new Set([...readableLists(lists, actor), ...asked])];
  const scope = await rowScope(ctx.db, ctx.resource, actor.principal);
  return fetchRecord(ctx, { db: ctx.db, id, includes, scope, viewer: actor.principal });
}
