import type { Resource } from '../../../resources/define.ts';
import type { Db } from '../../db/index.ts';
import { publishEvent } from '../../events/hub.ts';
import { audienceOf, scopeColumnsOf } from '../scope.ts';
import type { Actor } from './audit.ts';

/** Most ids a many-record event lists (NOTIFY payloads stay under PostgreSQL's 8000 bytes). */
const MAX_EVENT_IDS = 200;
/** Most ids a many-record event of a scoped resource lists: each carries its audience too. */
const MAX_SCOPED_EVENT_IDS = 50;

/** A committed write of one record, for its live event. */
export interface RecordChange {
  resource: Resource;
  id: string;
  action: 'create' | 'update' | 'delete';
  /** A deleted record's values as read before the delete (its scope columns decide who hears of it). */
  before?: Record<string, unknown>;
}

/**
 * The live events of committed writes (server/events), one per record: streams of holders of each resource's
 * permission refresh, those whose data scope holds the record (its scope columns travel with the event,
 * scope.ts `audienceOf`). Publish only after the transaction has committed.
 */
export async function publishChanges(db: Db, changes: readonly RecordChange[], actor: Actor): Promise<void> {
  for (const { resource, id, action, before } of changes) {
    const data = { resource: resource.name, id, action, actor_id: actor.userId };
    const records = await audienceOf(db, resource, [id], before ? new Map([[id, before]]) : undefined);
    await publishEvent(db, {
      type: 'record',
      data,
      permission: resource.permission,
      ...(records ? { records } : {}),
    });
  }
}

/**
 * One live event for a committed call that wrote many records (a bulk update or delete, an import), so lists
 * refresh once: `id` null and `ids` the records (null when more than MAX_EVENT_IDS, meaning "any of them").
 */
export async function publishManyChanged(
  db: Db,
  {
    resource,
    action,
    ids,
    actor,
    before,
  }: {
    resource: Resource;
    action: string;
    ids: string[];
    actor: Actor;
    /** Deleted records' values, read before the delete. */
    before?: ReadonlyMap<string, Record<string, unknown>>;
  },
): Promise<void> {
  const listed = ids.length <= (scopeColumnsOf(resource) ? MAX_SCOPED_EVENT_IDS : MAX_EVENT_IDS);
  const data = {
    resource: resource.name,
    id: null,
    action,
    ids: listed ? ids : null,
    actor_id: actor.userId,
  };
  // Past the limit the event names no record ("any of them") and every holder of the permission hears it.
  const records = listed ? await audienceOf(db, resource, ids, before) : undefined;
  return publishEvent(db, {
    type: 'record',
    data,
    permission: resource.permission,
    ...(records ? { records } : {}),
  });
}
