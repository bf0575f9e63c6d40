import type { Resource } from '../../../resources/define.ts';
import type { Actor } from '../../core/activity.ts';
import { writeActorActivity } from '../activity-log.ts';
import type { Queryable } from '../../db/index.ts';
import { fieldsOf } from '../schema/fields.ts';

export const MASK = '******';

export type { Actor } from '../../core/activity.ts';

export type Changes = Record<string, [unknown, unknown]>;

/**
 * `{ field: [old, new] }` for the fields whose value changed; write-only values are masked on both sides.
 * Pass `before` null for a create and `after` null for a delete.
 */
export function diffChanges(
  resource: Resource,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Changes {
  const changes: Changes = {};
  for (const f of fieldsOf(resource)) {
    const hasOld = before !== null && f.name in before;
    const hasNew = after !== null && f.name in after;
    if (!hasOld && !hasNew) continue;
    const old = hasOld ? (before[f.name] ?? null) : null;
    const next = hasNew ? (after[f.name] ?? null) : null;
    if (f.meta.writeOnly) {
      if (hasNew) changes[f.name] = [before ? MASK : null, next === null ? null : MASK];
      continue;
    }
    if (JSON.stringify(old) !== JSON.stringify(next)) changes[f.name] = [old, next];
  }
  return changes;
}

/** Writes one activity_logs row; call it inside the write's transaction. */
export async function writeAudit(
  tx: Queryable,
  {
    resource,
    action,
    subjectId,
    changes,
    actor,
  }: {
    resource: Resource;
    /** An operation's name, or a row action's key (`gadgets.ship`). */
    action: 'create' | 'update' | 'delete' | 'restore' | 'purge' | (string & {});
    subjectId: string;
    changes: Changes;
    actor: Actor;
  },
): Promise<void> {
  await writeActorActivity(tx, actor, {
    action: `${resource.name}.${action}`,
    subjectType: resource.name,
    subjectId,
    changes,
  });
}
