import type { Paged } from '../../schemas/pagination.ts';
import { actionsOf } from '../../resources/define.ts';
import { AppError } from '../core/errors.ts';
import { paged, pageOf } from '../core/paged.ts';
import type { Queryable } from '../db/index.ts';
import type { OperationContext } from './context.ts';
import { hiddenFields, restrictedFields } from './field-access.ts';
import { inlineLists } from '../../resources/inline-lists.ts';
import { readableLists, splitInline } from './write/inline-writes.ts';
import { fieldsOf } from './schema/fields.ts';
import { publishChanges, type RecordChange } from './write/record-events.ts';
import { inlineSnapshot, inlineWriter, itemsToRestore, visibleInlineChange } from './write/inline-history.ts';
import { MASK } from './write/audit.ts';
import { fetchRecord, patchRecord } from './write/record-writes.ts';
import { validateBody } from './operations.ts';
import type { WireRecord } from './list/wire.ts';
import { rowScope } from './scope.ts';

/**
 * A record's history and restore (contract: "Nothing lost"), read from its audit rows: every engine write
 * records `changes: { field: [old, new] }` and, on update, `version: [old, new]` (record-writes.ts), so the
 * rows of `<resource>.create|update|restore` are the record's versions. Versions older than migration 0120
 * have audit rows without a number; they are listed with `version: null` and cannot be restored.
 */

/** One version of a record as `GET <path>/<id>/history` answers it. */
export interface HistoryEntry {
  version: number | null;
  action: 'create' | 'update' | 'restore';
  at: string;
  actor: { id: string; username: string; name: string } | null;
  changes: Record<string, [unknown, unknown]>;
}

/** `GET <path>/<id>/history`: the record's versions, newest first, paged like a list (`page`, `size`). */
export async function recordHistory(
  ctx: OperationContext,
  { id, query }: { id: string; query: unknown },
): Promise<Paged<HistoryEntry>> {
  const actor = await ctx.authorize('read');
  const scope = await rowScope(ctx.db, ctx.resource, actor.principal);
  // 404 when the record is not there or lies out of the caller's scope.
  await fetchRecord(ctx, { db: ctx.db, id, scope, viewer: actor.principal });
  const { page, size } = pageOf(query);
  const rows = await versionRows(ctx.db, ctx, id, { limit: size, offset: (page - 1) * size });
  const hidden = hiddenFields(actor.principal, ctx.resource);
  // The record's fields, and its inline lists whose children the caller may read (inline-history.ts).
  const all = inlineLists(ctx.resource, ctx.registry);
  const lists = readableLists(all, actor);
  // Their items without the child fields the caller's roles hide.
  const byKey = new Map(all.map((l) => [l.key, l]));
  const known = new Set([...fieldsOf(ctx.resource).map((f) => f.name), ...lists]);
  const data = rows.rows.map((row) => ({
    version: versionOf(row),
    action: historyAction(row.action.slice(ctx.resource.name.length + 1)),
    at: new Date(row.created_at).toISOString(),
    actor: row.operator_id
      ? { id: String(row.operator_id), username: row.username ?? '', name: row.name ?? '' }
      : null,
    changes: Object.fromEntries(
      Object.entries(row.changes ?? {})
        .filter(([field]) => known.has(field) && !hidden.has(field))
        .map(([field, value]) => {
          const list = byKey.get(field);
          return [field, list ? visibleInlineChange(actor.principal, list, value) : value];
        }),
    ) as HistoryEntry['changes'],
  }));
  return paged(data, { total: rows.total, page, size });
}

/**
 * `POST <path>/<id>/restore {version}`: writes the record's values as of that version as a new version,
 * through the update path (hooks, checks, audit row `<resource>.restore`). Fields the caller may not write
 * (read-only, hidden, write-only secrets) keep their current value. Answers the record as an update does.
 */
export async function restoreVersion(
  ctx: OperationContext,
  { id, body }: { id: string; body: unknown },
): Promise<WireRecord> {
  const actor = await ctx.authorize('update');
  const raw = (body ?? {}) as { version?: unknown };
  const target = raw.version;
  if (typeof target !== 'number' || !Number.isInteger(target) || target < 1 || target > 2147483647)
    throw new AppError(422, 'engine.version.bad', { fields: { version: ['engine.version.bad_short'] } });
  const restricted = restrictedFields(actor.principal, ctx.resource);
  const written: RecordChange[] = [];
  await ctx.db.transaction(async (tx) => {
    const scope = await rowScope(tx, ctx.resource, actor.principal);
    // Locked: no write slips between reading the history and writing over it.
    const current = await fetchRecord(ctx, { db: tx, id, scope, viewer: undefined, forUpdate: true });
    const values = await valuesAt(tx, ctx, { current, target });
    const data: Record<string, unknown> = {};
    for (const f of fieldsOf(ctx.resource)) {
      if (f.meta.readOnly || f.meta.writeOnly || restricted.has(f.name) || !(f.name in values)) continue;
      if (JSON.stringify(values[f.name] ?? null) === JSON.stringify(current[f.name] ?? null)) continue;
      data[f.name] = values[f.name];
    }
    // Inline lists changed since that version: their children as they were then (inline-history.ts).
    const lists = inlineLists(ctx.resource, ctx.registry).filter((l) => l.key in values);
    for (const list of lists) {
      const now = await inlineSnapshot(ctx, tx, list, id);
      if (JSON.stringify(now) === JSON.stringify(values[list.key])) continue;
      data[list.key] = itemsToRestore(list, values[list.key], now, actor);
    }
    const { own, children } = splitInline(validateBody(ctx, 'update', data), lists);
    await patchRecord(ctx, {
      tx,
      id,
      data: own,
      actor,
      expectedVersion: current.version as number,
      auditAction: 'restore',
      inline: inlineWriter(ctx, { tx, parentId: id, children, actor, written }),
    });
  });
  await publishChanges(ctx.db, [{ resource: ctx.resource, id, action: 'update' }, ...written], actor);
  const lists = inlineLists(ctx.resource, ctx.registry);
  const scope = await rowScope(ctx.db, ctx.resource, actor.principal);
  return fetchRecord(ctx, {
    db: ctx.db,
    id,
    scope,
    viewer: actor.principal,
    includes: readableLists(lists, actor),
  });
}

interface VersionRow {
  action: string;
  created_at: string | Date;
  operator_id: string | number | null;
  username: string | null;
  name: string | null;
  changes: Record<string, [unknown, unknown]> | null;
}

/** The record's version rows, newest first, and how many there are. */
async function versionRows(
  db: Queryable,
  ctx: Pick<OperationContext, 'resource'>,
  id: string,
  { limit, offset }: { limit: number | null; offset: number },
): Promise<{ rows: VersionRow[]; total: number }> {
  const name = ctx.resource.name;
  const acted = Object.keys(actionsOf(ctx.resource)).map((key) => `${name}.${key}`);
  const params = [name, id, [`${name}.create`, `${name}.update`, `${name}.restore`, ...acted]];
  const where = `a."subject_type" = $1 AND a."subject_id" = $2 AND a."action" = ANY($3::text[])`;
  const page = limit === null ? '' : ` LIMIT ${limit} OFFSET ${offset}`;
  const { rows } = await db.query<VersionRow>(
    `SELECT a."action", a."created_at", a."operator_id", u."username", u."name", a."changes"
       FROM "activity_logs" a LEFT JOIN "users" u ON u."id" = a."operator_id"
      WHERE ${where} ORDER BY a."id" DESC${page}`,
    params,
  );
  const { rows: counted } = await db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM "activity_logs" a WHERE ${where}`,
    params,
  );
  return { rows, total: Number(counted[0]!.n) };
}

function versionOf(row: Pick<VersionRow, 'action' | 'changes'>): number | null {
  const recorded = row.changes?.version?.[1];
  if (typeof recorded === 'number') return recorded;
  return row.action.endsWith('.create') ? 1 : null;
}

/**
 * The record's field values as of version `target`: the current values with the changes of every later
 * version undone, newest first (each row's `old` side). 422 naming `version` when the history has no such
 * version. Masked secrets are never restored (they are left out).
 */
async function valuesAt(
  db: Queryable,
  ctx: Pick<OperationContext, 'resource'>,
  { current, target }: { current: WireRecord; target: number },
): Promise<Record<string, unknown>> {
  const values: Record<string, unknown> = { ...current };
  if (target === current.version) return values;
  const unknown = new AppError(422, 'engine.version.unknown', {
    params: { version: target },
    fields: { version: ['engine.version.unknown_short'] },
  });
  if (target > (current.version as number)) throw unknown;
  const { rows } = await versionRows(db, ctx, current.id, { limit: null, offset: 0 });
  for (const row of rows) {
    const version = versionOf(row);
    if (version === target) return values;
    if (version === null || version < target) break;
    for (const [field, [old]] of Object.entries(row.changes ?? {})) {
      if (field === 'version' || old === MASK) continue;
      values[field] = old;
    }
  }
  throw unknown;
}

/** A row action's audit row (`gadgets.ship`) is a version like an update's. */
function historyAction(action: string): HistoryEntry['action'] {
  return action === 'create' || action === 'restore' ? action : 'update';
}
