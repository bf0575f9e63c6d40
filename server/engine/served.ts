import type { Resource } from '../../resources/define.ts';
import { resources as registeredResources } from '../../resources/index.ts';
import { pageLabels, type Page } from '../../resources/define-page.ts';
import { pages as registeredPages } from '../../resources/pages.ts';
import { catalogs, type Catalog, type Locale } from '../../locales/index.ts';

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

let servedPageList: readonly Page[] = [];
addServedPages(registeredPages);

/**
 * Adds custom pages (resources/define-page.ts) to the served set, by name, and their titles to the server's
 * catalogues (`app.pages.<name>`), so `GET v1/system/menus`, the role validation and the role tree know them.
 */
export function addServedPages(list: readonly Page[]): void {
  if (!list.length) return;
  const byName = new Map(servedPageList.map((p) => [p.name, p]));
  for (const page of list) byName.set(page.name, page);
  servedPageList = [...byName.values()];
  for (const locale of Object.keys(catalogs) as Locale[]) {
    const app = catalogs[locale].app as Catalog;
    app.pages = { ...(app.pages as Catalog | undefined), ...pageLabels(list, locale).pages };
  }
}

export function servedPages(): readonly Page[] {
  return servedPageList;
}
