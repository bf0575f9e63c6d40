import { safeError } from '../core/http.ts';
import { getSettings } from '../core/settings.ts';
import type { Db, Queryable } from '../db/index.ts';
import type { JobsRuntime } from '../jobs/runtime.ts';
import type { Actor } from './write/audit.ts';
import type {
  CommittedEvent,
  HookContext,
  HookLogger,
  HookServices,
  ResourceHooks,
  WriteEvent,
} from './hooks.ts';
import { enqueueOutbox, writeOutbox } from './outbox.ts';

/**
 * What hooks run with (hooks.ts `HookContext`, `afterCommit`): the engine's database is wrapped once
 * (`withHookRuntime`, engine/module.ts) so that every transaction an operation opens knows its services and
 * keeps a list of work for after its commit. On commit the list runs in order, each failure logged (never
 * the caller's error); on rollback it is dropped. A path that writes through its own handle (a module's own
 * transaction) has no such list: its hooks get the services, and afterCommit is not run for it.
 */

interface Runtime {
  db: Db;
  services: ServicesFactory;
  log: HookLogger;
}

interface Open {
  runtime: Runtime;
  queue: Array<() => Promise<void>>;
}

/** The services for a handle: inside a transaction (`onCommit` defers what must wait for it) or outside. */
export type ServicesFactory = (
  handle: Queryable,
  onCommit: (run: () => Promise<void>) => void,
) => HookServices;

const open = new WeakMap<Queryable, Open>();
const runtimes = new WeakMap<Db, Runtime>();

/**
 * A Db whose transactions run their hooks' after-commit work once committed. Example:
 * `const db = withHookRuntime(ctx.db, { services: createHookServices({ config, log, jobs }), log })`.
 */
export function withHookRuntime(
  db: Db,
  { services, log }: { services: ServicesFactory; log: HookLogger },
): Db {
  const wrapped = Object.create(db) as Db;
  const runtime: Runtime = { db: wrapped, services, log };
  runtimes.set(wrapped, runtime);
  wrapped.transaction = async (fn) => {
    const queue: Array<() => Promise<void>> = [];
    const result = await db.transaction((tx) => {
      open.set(tx, { runtime, queue });
      return fn(tx);
    });
    for (const run of queue)
      try {
        await run();
      } catch (error) {
        log.error({ err: safeError(error) }, 'after-commit work failed');
      }
    return result;
  };
  return wrapped;
}

/** The services hooks use, bound to the app's database, its config, pg-boss (when running) and its log. */
export function createHookServices({
  log,
  jobs,
}: {
  log: HookLogger;
  jobs: () => JobsRuntime | null;
}): ServicesFactory {
  return (handle, onCommit) => ({
    mail: {
      async send(message) {
        const id = await writeOutbox(handle, message);
        onCommit(() => enqueueOutbox(jobs(), id, log));
      },
    },
    jobs: {
      async send(queue, data) {
        onCommit(async () => {
          // While the runtime is starting, the job is sent once it has.
          const runtime = jobs();
          if (!runtime) throw new Error(`jobs are not running; ${queue} not sent`);
          await runtime.sendOnceRunning(queue, data);
        });
      },
    },
    settings: { get: (group) => getSettings(handle, group) },
    logger: { info: log.info.bind(log), warn: log.warn.bind(log), error: log.error.bind(log) },
  });
}

/** The context a hook gets inside a write's transaction (services that throw when the handle has none). */
export function hookContextOf(tx: Queryable, actor: Actor): HookContext {
  const state = open.get(tx);
  return {
    principal: actor.principal,
    db: tx,
    services: state ? state.runtime.services(tx, (run) => state.queue.push(run)) : UNAVAILABLE,
  };
}

/**
 * Queues the resource's afterCommit for a write made in `tx` (nothing when it has none, or when `tx` is not a
 * transaction of a wrapped database).
 */
export function queueAfterCommit(
  hooks: ResourceHooks,
  event: Omit<WriteEvent, keyof HookContext | 'tx'> & { tx: Queryable; id: string },
): void {
  const state = open.get(event.tx);
  if (!hooks.afterCommit || !state) return;
  const { tx: _tx, ...rest } = event;
  const { runtime } = state;
  state.queue.push(() => {
    const committed: CommittedEvent = {
      ...rest,
      principal: event.actor.principal,
      db: runtime.db,
      services: runtime.services(runtime.db, (run) => void run().catch(logged(runtime.log))),
    };
    return hooks.afterCommit!(committed);
  });
}

/** The runtime of a wrapped database (tests and tools that write outside the routes). */
export function hasHookRuntime(db: Db): boolean {
  return runtimes.has(db);
}

function logged(log: HookLogger) {
  return (error: unknown) => log.error({ err: safeError(error) }, 'after-commit work failed');
}

const unavailable = () => Promise.reject(new Error('hook services are not available on this write path'));
const UNAVAILABLE: HookServices = {
  mail: { send: unavailable },
  jobs: { send: unavailable },
  settings: { get: unavailable },
  logger: { info: () => {}, warn: () => {}, error: () => {} },
};
