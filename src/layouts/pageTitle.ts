import type { ResourceHeader } from '../../resources/meta.ts';
import { registeredDescriptors as registered } from '../engine/data/registry.ts';
import { SETTINGS_MENU, type MenuItem } from '../../schemas/permissions.ts';
import { registeredPages } from '../engine/data/pages.ts';

/** One step of the breadcrumb trail; the last one is the page itself (no link). */
export interface Crumb {
  label: string;
  to?: string;
}

export interface PageTitle {
  /** The page's name: its `<h1>` and the first part of `document.title`. */
  title: string;
  crumbs: Crumb[];
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

function findByPath(items: readonly MenuItem[], path: string): MenuItem | undefined {
  for (const item of items) {
    if (item.path === path) return item;
    const found = findByPath(item.children ?? [], path);
    if (found) return found;
  }
  return undefined;
}

/**
 * Title and breadcrumbs of any signed-in page, from the route alone: the settings menu names the pages, the
 * resource registry names the engine's collections, and `recordLabel` (the representation of the record an
 * edit or show page has loaded) names a record. Examples: `/settings/staff/2` with "Li Lei" ->
 * Settings > Staff > Li Lei; `/settings/roles/create` -> Settings > Roles > New role.
 */
export function pageTitleOf(
  pathname: string,
  t: Translate,
  {
    recordLabel,
    language = 'zh-CN',
    list = registered,
  }: { recordLabel?: string | null; language?: string; list?: readonly ResourceHeader[] } = {},
): PageTitle {
  const segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [area, channel, id, view] = segments;
  const finish = (crumbs: Crumb[]): PageTitle => {
    const last = crumbs[crumbs.length - 1]!;
    return {
      title: last.label,
      crumbs: crumbs.map((c, i) => (i === crumbs.length - 1 ? { label: c.label } : c)),
    };
  };
  if (area === 'dashboard') return finish([{ label: t('app.dashboard.title') }]);
  if (area === 'account') {
    const account = { label: t('app.account.title'), to: '/account' };
    if (channel === 'password') return finish([account, { label: t('app.account.password') }]);
    if (channel === 'security') return finish([account, { label: t('app.account.security') }]);
    return finish([account, { label: t('app.account.profile') }]);
  }
  if (area !== 'settings') return finish([{ label: segments.join(' / ') || t('app.dashboard.title') }]);
  const root: Crumb = { label: t('app.nav.settings'), to: '/settings' };
  if (!channel) return finish([root, { label: t('app.menu.general') }]);
  const resource = list.find((r) => r.name === channel);
  const menu =
    findByPath(SETTINGS_MENU, `/settings/${channel}`) ??
    registeredPages.find((custom) => custom.path === channel);
  const pageName = menu
    ? t(menu.title)
    : resource
      ? t(`resources.${resource.name}.name`, { count: 2, smart_count: 2 })
      : channel;
  const page: Crumb = { label: pageName, to: `/settings/${channel}` };
  if (!id) return finish([root, page]);
  if (id === 'create') {
    const one = resource ? t(`resources.${resource.name}.name`, { count: 1, smart_count: 1 }) : pageName;
    // English puts the noun mid-phrase ("New staff member"); Chinese has no case.
    const noun = language.startsWith('en') ? one.charAt(0).toLowerCase() + one.slice(1) : one;
    return finish([root, page, { label: t('app.shell.create_title', { name: noun }) }]);
  }
  if (id === 'trash' && resource) return finish([root, page, { label: t('engine.trash.title') }]);
  // Edit (`<id>`) and show (`<id>/show`) pages are both named by the record.
  void view;
  return finish([root, page, { label: recordLabel || `#${id}` }]);
}
