import type { Resource } from '../../../resources/define.ts';
import type { Db } from '../../db/index.ts';
import { publishEvent } from '../../events/hub.ts';
import type { Actor } from './audit.ts';

/** Most ids a many-record event lists (NOTIFY payloads stay under PostgreSQL's 8000 bytes). */
const MAX_EVENT_IDS = 200;

/** A committed write of one record, for its live event. */
export interface RecordChange {
  resource: Resource;
  id: string;
  action: 'create' | 'update' | 'delete';
}

/**
 * The live events of committed writes (server/events), one per record: streams of holders of each resource's
 * permission refresh. Publish only after the transaction has committed.
 */
export async function publishChanges(db: Db, changes: readonly RecordChange[], actor: Actor): Promise<void> {
  for (const { resource, id, action } of changes) {
    const data = { resource: resource.name, id, action, actor_id: actor.userId };
    await publishEvent(db, { type: 'record', data, permission: resource.permission });
  }
}

/**
 * One live event for a committed call that wrote many records (a bulk update or delete, an import), so lists
 * refresh once: `id` null and `ids` the records (null when more than MAX_EVENT_IDS, meaning "any of them").
 */
export function publishManyChanged(
  db: Db,
  { resource, action, ids, actor }: { resource: Resource; action: string; ids: string[]; actor: Actor },
): Promise<void> {
  const data = {
    resource: resource.name,
    id: null,
    action,
    ids: ids.length <= MAX_EVENT_IDS ? ids : null,
    actor_id: actor.userId,
  };
  return publishEvent(db, { type: 'record', data, permission: resource.permission });
}
