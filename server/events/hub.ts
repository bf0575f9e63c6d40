import crypto from 'node:crypto';
import type { Db } from '../db/index.ts';

/** The NOTIFY channel every server listens on. */
export const EVENTS_CHANNEL = 'app_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; stay clear of it. */
const MAX_PAYLOAD = 7900;
/** How many cluster events each server keeps for Last-Event-ID replay. */
const RING_SIZE = 500;

/**
 * One event as the servers pass it around. `permission` is the name a subscriber must hold (`null`: any
 * signed-in user); `userId` narrows it to one account. Neither is sent to the browser.
 */
export interface AppEvent {
  type: string;
  data: unknown;
  permission: string | null;
  userId?: string;
  /**
   * For a record event of a resource with data scopes: who may see each record, by id (`data.id`, or each of
   * `data.ids`). Never sent to a client: a stream delivers the event only with the records its subscriber's
   * scope holds (module.ts, decided by the engine through `Accounts.seesRecord`).
   */
  records?: Record<string, RecordAudience>;
}

/** The scope columns of one record, as the events carry them across servers. */
export interface RecordAudience {
  /** The record's department first, then its ancestors to the root ([] without one). */
  departments: string[];
  /** The users the record belongs to (its creator, and for staff the user it is). */
  owners: string[];
}

/** An event as a stream sees it: with its id (`<server>.<sequence>`). */
export interface StampedEvent extends AppEvent {
  id: string;
  seq: number;
}

export type EventListener = (event: StampedEvent) => void;

/**
 * The events of one database (one per server process in production; tests run several in one process,
 * hence the WeakMap keyed by Db). Cluster events go out with NOTIFY and come back to every server, this
 * one included, through LISTEN; local events (monitor figures, log tail) only reach this server's streams.
 */
export interface EventHub {
  readonly instance: string;
  /** Starts listening (idempotent); the returned function stops. */
  start(): Promise<void>;
  stop(): Promise<void>;
  subscribe(listener: EventListener): () => void;
  /** Events after `lastId`, or null when they are no longer (or never were) in this server's ring. */
  replaySince(lastId: string): StampedEvent[] | null;
  /** Delivers to this server's subscribers only, without an id in the replay ring. */
  publishLocal(event: AppEvent): void;
  /** Internal listener for a type (e.g. module state changes), called for every delivery. */
  on(type: string, fn: (event: StampedEvent) => void): () => void;
}

const hubs = new WeakMap<Db, EventHub>();

/** The hub of a database, created on first use. */
export function hubFor(db: Db): EventHub {
  let hub = hubs.get(db);
  if (!hub) {
    hub = createHub(db);
    hubs.set(db, hub);
  }
  return hub;
}

/**
 * Raises a cluster event: every server's streams get it, each filtered by the subscriber's permissions.
 * Call it after the transaction that made the change has committed. The jobs module reports progress this
 * way. Example:
 * `await publishEvent(db, { type: 'job', data: { queue, id, progress: 40 }, permission: 'system.system.jobs' })`
 */
export async function publishEvent(db: Db, event: AppEvent): Promise<void> {
  let payload = JSON.stringify(event);
  if (Buffer.byteLength(payload) > MAX_PAYLOAD) {
    payload = JSON.stringify({ ...event, data: { truncated: true } });
  }
  try {
    await db.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, payload]);
  } catch {
    // Live events are a convenience: a failed notify must never fail the write that raised it.
  }
}

function createHub(db: Db): EventHub {
  const instance = crypto.randomBytes(4).toString('hex');
  const listeners = new Set<EventListener>();
  const internal = new Map<string, Set<(event: StampedEvent) => void>>();
  const ring: StampedEvent[] = [];
  let seq = 0;
  /** Events numbered below this came before a gap in listening: a client that last saw one must refetch. */
  let floor = 0;
  let unlisten: (() => Promise<void>) | null = null;
  let starting: Promise<void> | null = null;

  const deliver = (event: StampedEvent) => {
    for (const fn of internal.get(event.type) ?? []) safely(() => fn(event));
    for (const listener of listeners) safely(() => listener(event));
  };
  const onPayload = (payload: string) => {
    const event = parseEvent(payload);
    if (!event) return;
    seq += 1;
    const stamped: StampedEvent = { ...event, seq, id: `${instance}.${seq}` };
    ring.push(stamped);
    if (ring.length > RING_SIZE) ring.shift();
    deliver(stamped);
  };

  // The listening connection was lost and is back: events of other servers may be missing, so every
  // stream (and every client reconnecting with an older Last-Event-ID) is told to refetch.
  const onGap = () => {
    floor = seq + 1;
    ring.length = 0;
    deliver({ type: 'reset', data: {}, permission: null, seq: 0, id: '' });
  };

  return {
    instance,
    start() {
      starting ??= db.listen(EVENTS_CHANNEL, onPayload, { onGap }).then((fn) => {
        unlisten = fn;
      });
      return starting;
    },
    async stop() {
      await starting?.catch(() => undefined);
      await unlisten?.().catch(() => undefined);
      unlisten = null;
      starting = null;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    replaySince(lastId) {
      const match = /^([0-9a-f]{8})\.(\d{1,15})$/.exec(lastId);
      if (!match || match[1] !== instance) return null;
      const after = Number(match[2]);
      const oldest = ring[0]?.seq ?? seq + 1;
      if (after > seq || after < oldest - 1 || after < floor) return null;
      return ring.filter((e) => e.seq > after);
    },
    publishLocal(event) {
      deliver({ ...event, seq: 0, id: '' });
    },
    on(type, fn) {
      let set = internal.get(type);
      if (!set) internal.set(type, (set = new Set()));
      set.add(fn);
      return () => set.delete(fn);
    },
  };
}

function parseEvent(payload: string): AppEvent | null {
  try {
    const value = JSON.parse(payload) as Partial<AppEvent>;
    if (typeof value.type !== 'string') return null;
    return {
      type: value.type,
      data: value.data ?? null,
      permission: typeof value.permission === 'string' ? value.permission : null,
      ...(typeof value.userId === 'string' ? { userId: value.userId } : {}),
      ...(value.records && typeof value.records === 'object' ? { records: value.records } : {}),
    };
  } catch {
    return null;
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // One broken subscriber must not stop the others.
  }
}
