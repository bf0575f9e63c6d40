import type { InlineItem, InlineList } from '../../../resources/inline-lists.ts';
import type { Queryable } from '../../db/index.ts';
import type { OperationContext } from '../context.ts';
import { hiddenFields, restrictedFields } from '../field-access.ts';
import type { Principal } from '../../core/principal.ts';
import { loadRecords } from '../list/records.ts';
import { fieldsOf } from '../schema/fields.ts';
import type { Actor, Changes } from './audit.ts';
import type { RecordChange } from './record-events.ts';
import { lockChildRows } from './record-sql.ts';
import { writeInlineLists } from './inline-writes.ts';

/**
 * The inline children in their parent's history (issue 36, "Nothing lost"): when a write changes a parent's
 * inline list, the parent's audit row records the list's items before and after under the list's key
 * (`parts: [[{ id, name, quantity }], [...]]`), so the history shows them, restore of a version writes them
 * back as they were and undo of a bulk PATCH reverts them. An item is the child's id and its writable,
 * readable fields (the foreign key, read-only fields and secrets left out).
 */

/**
 * An inline list's `[before, after]` change as `principal` may see it: the child resource's hidden fields
 * (field access on roles) taken out of every item, as a read of the children would leave them out. Used by
 * the history and the activity log, which show the parent's audit rows.
 */
export function visibleInlineChange(
  principal: Principal | null | undefined,
  list: InlineList,
  value: unknown,
): unknown {
  const hidden = hiddenFields(principal, list.child);
  if (hidden.size === 0 || !Array.isArray(value)) return value;
  const strip = (side: unknown) =>
    Array.isArray(side)
      ? side.map((item: unknown) =>
          item && typeof item === 'object'
            ? Object.fromEntries(Object.entries(item).filter(([name]) => !hidden.has(name)))
            : item,
        )
      : side;
  return value.map(strip);
}

/** One child as its parent's history keeps it. */
export type InlineSnapshot = Record<string, unknown> & { id: string };

/** A parent's children of one list now (locked), in id order, as history items. */
export async function inlineSnapshot(
  ctx: OperationContext,
  tx: Queryable,
  list: InlineList,
  parentId: string,
): Promise<InlineSnapshot[]> {
  const rows = await lockChildRows(tx, { child: list.child, foreignKey: list.foreignKey, parentId });
  const records = await loadRecords(tx, { ...ctx, resource: list.child, viewer: undefined }, rows);
  const kept = snapshotFields(list);
  return records.map((r) => {
    const item: InlineSnapshot = { id: String(r.id) };
    for (const name of kept) item[name] = r[name] ?? null;
    return item;
  });
}

/**
 * Writes the given inline lists (writeInlineLists) and answers the parent's audit changes for them: each
 * list whose items differ afterwards, `{ <key>: [before, after] }`. `written` collects the children's
 * writes for their live events. Pass it as patchRecord's `inline`.
 */
export function inlineWriter(
  ctx: OperationContext,
  {
    tx,
    parentId,
    children,
    actor,
    written,
  }: {
    tx: Queryable;
    parentId: string;
    children: Map<InlineList, InlineItem[]>;
    actor: Actor;
    written: RecordChange[];
  },
): () => Promise<Changes> {
  return async () => {
    const before = new Map<InlineList, InlineSnapshot[]>();
    for (const list of children.keys()) before.set(list, await inlineSnapshot(ctx, tx, list, parentId));
    written.push(...(await writeInlineLists(ctx, { tx, parentId, children, actor, isNew: false })));
    const changes: Changes = {};
    for (const [list, old] of before) {
      const now = await inlineSnapshot(ctx, tx, list, parentId);
      if (JSON.stringify(old) !== JSON.stringify(now)) changes[list.key] = [old, now];
    }
    return changes;
  };
}

/**
 * The body items that bring a list back to `target` (a history snapshot) from its children now: a child
 * still there is updated in place (by its id), one gone since is created anew, the others are left out
 * (the list replaces the set). Fields the caller may not write keep their current value (left out of an
 * update; a new child gets its default).
 */
export function itemsToRestore(
  list: InlineList,
  target: unknown,
  current: readonly InlineSnapshot[],
  actor: Actor,
): InlineItem[] {
  const restricted = restrictedFields(actor.principal, list.child);
  const present = new Set(current.map((c) => c.id));
  const kept = snapshotFields(list).filter((name) => !restricted.has(name));
  return (Array.isArray(target) ? target : []).flatMap((raw): InlineItem[] => {
    if (!raw || typeof raw !== 'object') return [];
    const old = raw as Record<string, unknown>;
    const item: InlineItem = {};
    for (const name of kept) if (name in old) item[name] = old[name];
    const id = typeof old.id === 'string' ? old.id : null;
    return [id && present.has(id) ? { ...item, id } : item];
  });
}

/** The child fields a history item keeps. */
function snapshotFields(list: InlineList): string[] {
  return fieldsOf(list.child)
    .filter((f) => f.name !== list.foreignKey && !f.meta.readOnly && !f.meta.writeOnly)
    .map((f) => f.name);
}
