import type { Locale } from '../locales/languages.ts';
import type { MenuPage } from '../schemas/permissions.ts';

/**
 * A custom page a module declares (issue 35, item 11): a hand-written screen at `/settings/<path>` with its
 * own permission name, shown in the menu to callers holding it, offered in the role tree and accepted by the
 * server's role validation, with no edit to schemas/permissions.ts or the settings routes. The declaration is
 * data, read by the server and the client alike (resources/pages.ts lists them); the screen itself is named
 * by the same `name` in src/admin/pageScreens.ts, loaded on its first visit.
 *
 * @example
 * export const salesReport = definePage({
 *   name: 'sales_report',
 *   path: 'sales-report',
 *   permission: 'shop.sales_report',
 *   menu: { icon: 'Assessment', order: 20 },
 *   labels: { en: 'Sales report', 'zh-CN': '销售报表' },
 * });
 */
export interface PageDeclaration {
  /** snake_case, unique among pages; the key of its screen in src/admin/pageScreens.ts. */
  name: string;
  /** Below /settings/, e.g. `sales-report`. */
  path: string;
  /** A new permission name; its prefix is its menu group, as for a resource (`shop.x` -> group `shop`). */
  permission: string;
  /** @mui/icons-material component name and the order within its group (default 100). */
  menu?: { icon?: string; order?: number };
  /** Its title in every language (menu, role tree, page title). */
  labels: Record<Locale, string>;
}

/** A declared page as the menu reads it (schemas/permissions.ts `MenuPage`): its title is `pages.<name>`. */
export type Page = PageDeclaration & MenuPage;

const PAGE_NAME = /^[a-z][a-z0-9_]*$/;
const PAGE_PATH = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/;

export function definePage(declaration: PageDeclaration): Page {
  if (!PAGE_NAME.test(declaration.name)) throw new Error(`Page name "${declaration.name}" is not snake_case`);
  if (!PAGE_PATH.test(declaration.path))
    throw new Error(`Page "${declaration.name}": bad path "${declaration.path}"`);
  if (!declaration.permission.includes('.'))
    throw new Error(`Page "${declaration.name}": its permission needs a group prefix (group.page)`);
  return { ...declaration, title: pageTitleKey(declaration.name) };
}

/** Locale key of a page's title (in the `app` namespace): filled from its `labels`. */
export function pageTitleKey(name: string): string {
  return `app.pages.${name}`;
}

/** The catalogue entries a list of pages adds to each language's `app` namespace. */
export function pageLabels(pages: readonly Page[], locale: Locale): { pages: Record<string, string> } {
  return { pages: Object.fromEntries(pages.map((page) => [page.name, page.labels[locale]])) };
}
