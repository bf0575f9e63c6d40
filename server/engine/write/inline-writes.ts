import type { InlineItem, InlineList } from '../../../resources/inline-lists.ts';
import { AppError } from '../../core/errors.ts';
import type { Queryable } from '../../db/index.ts';
import { diffChanges, type Actor } from './audit.ts';
import type { OperationContext } from '../context.ts';
import { InUseError } from './db-errors.ts';
import { mayRead } from '../list/include-access.ts';
import { fieldLabel } from '../labels.ts';
import type { RecordChange } from './record-events.ts';
import { lockChildRows } from './record-sql.ts';
import { insertRecord, patchRecord, removeRecord } from './record-writes.ts';
import { loadRecords } from '../list/records.ts';
import type { WireRecord } from '../list/wire.ts';

/**
 * Inline has-many lists (resources/inline-lists.ts): the children a create or update writes with their
 * parent, in the parent's transaction, each through the child's own write path (record-writes.ts).
 */

/** Separates the inline has-many lists from the record's own fields. */
export function splitInline(
  data: Record<string, unknown>,
  lists: InlineList[],
): { own: Record<string, unknown>; children: Map<InlineList, InlineItem[]> } {
  const own = { ...data };
  const children = new Map<InlineList, InlineItem[]>();
  for (const list of lists) {
    if (!(list.key in own)) continue;
    const items = own[list.key] as InlineItem[] | undefined;
    delete own[list.key];
    if (items !== undefined) children.set(list, items);
  }
  return { own, children };
}

/** The inline lists a create/update response embeds: those whose child resource the caller may read. */
export function readableLists(lists: readonly InlineList[], actor: Actor): string[] {
  return lists.filter((l) => mayRead(actor.principal, l.child)).map((l) => l.key);
}

/**
 * Writes the given inline lists of one parent (inside its transaction): every id is checked first (a 422 on
 * `<key>.<index>.id` when it is not one of this parent's children, or listed twice), then children left out
 * are deleted, items with an id updated (skipped when nothing changes) and the others created, each through
 * the child's own write path (hooks, unique checks, audit row). Errors name `<key>.<index>.<field>`.
 * `isNew`: the parent was just created (it has no children yet). Returns the writes, for their live events
 * after commit.
 */
export async function writeInlineLists(
  ctx: OperationContext,
  {
    tx,
    parentId,
    children,
    actor,
    isNew,
  }: {
    tx: Queryable;
    parentId: string;
    children: Map<InlineList, InlineItem[]>;
    actor: Actor;
    isNew: boolean;
  },
): Promise<RecordChange[]> {
  const plans: { list: InlineList; items: InlineItem[]; existing: Map<string, WireRecord> }[] = [];
  const errors: Record<string, string[]> = {};
  for (const [list, items] of children) {
    const existing = isNew ? [] : await lockedChildren(ctx, tx, list, parentId);
    const byId = new Map(existing.map((r) => [r.id, r]));
    const seen = new Set<string>();
    items.forEach((item, index) => {
      if (item.id === undefined) return;
      if (!byId.has(item.id)) errors[`${list.key}.${index}.id`] = ['engine.record.not_a_child'];
      else if (seen.has(item.id)) errors[`${list.key}.${index}.id`] = ['engine.record.duplicate_child'];
      seen.add(item.id);
    });
    plans.push({ list, items, existing: byId });
  }
  if (Object.keys(errors).length) throw AppError.validation(errors);

  const written: RecordChange[] = [];
  for (const { list, items, existing } of plans) {
    const { child, key, foreignKey } = list;
    const kept = new Set(items.flatMap((item) => (item.id === undefined ? [] : [item.id])));
    for (const id of existing.keys()) {
      if (kept.has(id)) continue;
      const before = await asItemOf(key, null, () =>
        // Left out of the set: deleted for good, not trashed, so an item that replaces it in the same list
        // may take its unique values (the parent's history keeps what it was; its own trash is for a delete).
        removeRecord(childContext(ctx, list, null), { tx, id, actor, hard: true }),
      );
      written.push({ resource: child, id, action: 'delete', before });
    }
    for (const [index, { id, ...fields }] of items.entries()) {
      const itemCtx = childContext(ctx, list, index);
      if (id === undefined) {
        const data = { ...fields, [foreignKey]: parentId };
        const newId = await asItemOf(key, index, () => insertRecord(itemCtx, { tx, data, actor }));
        written.push({ resource: child, id: newId, action: 'create' });
        continue;
      }
      const before = existing.get(id)!;
      if (Object.keys(diffChanges(child, before, { ...before, ...fields })).length === 0) continue;
      await asItemOf(key, index, () => patchRecord(itemCtx, { tx, id, data: fields, actor }));
      written.push({ resource: child, id, action: 'update' });
    }
  }
  return written;
}

/** A parent's current children of one list, locked for the rest of the transaction. */
async function lockedChildren(
  ctx: OperationContext,
  tx: Queryable,
  list: InlineList,
  parentId: string,
): Promise<WireRecord[]> {
  const rows = await lockChildRows(tx, { child: list.child, foreignKey: list.foreignKey, parentId });
  return loadRecords(tx, { ...ctx, resource: list.child, viewer: undefined }, rows);
}

/**
 * The context a child write runs in: the child resource, the parent's actor (the parent's permission was
 * checked), and labels that say which item a message is about ("Parts item 3: Code").
 */
function childContext(ctx: OperationContext, list: InlineList, index: number | null): OperationContext {
  const { lang } = ctx;
  return {
    ...ctx,
    resource: list.child,
    isInlineChild: true,
    authorize: () => Promise.reject(new Error('inline children are authorized through their parent')),
    label: (field) => {
      if (!lang) return index === null ? list.key : `${list.key}.${index}.${field}`;
      const childField = fieldLabel(lang, list.child, field);
      if (index === null) return ctx.label(list.key);
      const params = { list: ctx.label(list.key), index: index + 1, field: childField };
      return lang.t('engine.record.child_field', params);
    },
  };
}

/**
 * Runs a child write, renaming the fields of its errors: `<key>.<index>.<field>` for an item of the list,
 * `<key>` alone for a child the list left out (its delete failed).
 */
async function asItemOf<T>(key: string, index: number | null, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof AppError) || !error.fields || error instanceof InUseError) throw error;
    const fields: Record<string, string[]> = {};
    for (const [field, keys] of Object.entries(error.fields)) {
      const name = index === null ? key : `${key}.${index}.${field}`;
      fields[name] = [...(fields[name] ?? []), ...keys];
    }
    throw new AppError(error.status, error.key, { params: error.params, fields, headers: error.headers });
  }
}
