import type { Db } from '../db/index.ts';

/**
 * A source of local events that only runs while someone watches: monitor figures every 2 s while a stream
 * of a `system.system.monitor` holder is open, the log tail while a `system.system.logs` holder listens.
 * `start` returns its stop function.
 */
export interface LiveProducer {
  name: string;
  permission: string;
  start(): () => void;
}

export interface Producers {
  add(producer: LiveProducer): void;
  /** Re-evaluates which producers have an audience; `holds(permission)` asks every open stream. */
  update(holds: (permission: string) => boolean): void;
  stopAll(): void;
}

const registries = new WeakMap<Db, Producers>();

/**
 * The live producers of a database's event streams. Example (a module):
 * `producersFor(db).add({ name: 'monitor', permission: 'system.system.monitor', start: () => stopFn })`
 */
export function producersFor(db: Db): Producers {
  let registry = registries.get(db);
  if (!registry) {
    registry = createProducers();
    registries.set(db, registry);
  }
  return registry;
}

function createProducers(): Producers {
  const producers = new Map<string, LiveProducer>();
  const running = new Map<string, () => void>();
  return {
    add(producer) {
      producers.set(producer.name, producer);
    },
    update(holds) {
      for (const producer of producers.values()) {
        const wanted = holds(producer.permission);
        const stop = running.get(producer.name);
        if (wanted && !stop) running.set(producer.name, producer.start());
        if (!wanted && stop) {
          stop();
          running.delete(producer.name);
        }
      }
    },
    stopAll() {
      for (const stop of running.values()) stop();
      running.clear();
    },
  };
}
