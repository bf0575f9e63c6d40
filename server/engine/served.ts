import type { Resource } from '../../resources/define.ts';
import { resources as registeredResources } from '../../resources/index.ts';

/**
 * The resources this process serves: resources/index.ts, plus any a resources module registers
 * (`createResourcesModule`, e.g. the test fixtures). The settings menu (`GET v1/system/menus`) and the
 * names a role may hold are derived from them (schemas/permissions.ts `settingsMenu`).
 */
let served: readonly Resource[] = registeredResources;

/** Adds resources to the served set (by name; a second registration of a name replaces the first). */
export function addServedResources(list: readonly Resource[]): void {
  const byName = new Map(served.map((r) => [r.name, r]));
  let changed = false;
  for (const r of list) {
    if (byName.get(r.name) !== r) changed = true;
    byName.set(r.name, r);
  }
  // A new array only when something changed, so per-list caches (settingsMenu) stay warm.
  if (changed) served = [...byName.values()];
}

export function servedResources(): readonly Resource[] {
  return served;
}
