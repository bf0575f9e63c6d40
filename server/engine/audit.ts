import type { Resource } from '../../resources/define.ts';
import type { Principal } from '../core/principal.ts';
import type { Queryable } from '../db/index.ts';
import { fieldsOf } from './fields.ts';

export const MASK = '******';

/** Who did it and from where, for the audit row. */
export interface Actor {
  userId: string;
  ip: string | null;
  userAgent: string | null;
  /** The caller's staff record and permission names, for hooks that enforce who may write what. */
  principal?: Principal;
  /** `<scheme>://<host>` of the request, for links a hook hands out. */
  origin?: string;
}

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
    action: 'create' | 'update' | 'delete';
    subjectId: string;
    changes: Changes;
    actor: Actor;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id, changes, ip, user_agent)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      actor.userId,
      `${resource.name}.${action}`,
      resource.name,
      subjectId,
      JSON.stringify(changes),
      actor.ip,
      actor.userAgent?.slice(0, 500) ?? null,
    ],
  );
}
