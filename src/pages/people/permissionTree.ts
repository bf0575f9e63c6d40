import { resources } from '../../../resources/index.ts';
import { settingsMenu, type MenuItem } from '../../../schemas/permissions.ts';
import { registeredPages } from '../../engine/data/pages.ts';

/** One checkbox of the role editor: a group, a page or an action, with its label key and children. */
export interface PermissionNode {
  name: string;
  /** Locale key of a group or page title; actions use `settings.people.roles.actions.<action>`. */
  title: string;
  children: PermissionNode[];
  /** A name that reaches as far as an administrator's account (`MenuItem.grants`): marked in the editor. */
  dangerous?: boolean;
}

/**
 * The whole permission tree: groups -> pages -> the `<page>.<action>` names each page declares (from the
 * settings menu, the one source, with a page per registered resource, `menu: false` ones included; the
 * monitor has no actions, general settings only `update`), then the names a page grants besides them (general
 * settings: `system.settings.delivery`, dangerous).
 */
export function permissionNodes(
  items: readonly MenuItem[] = settingsMenu(resources, undefined, registeredPages),
): PermissionNode[] {
  return items.flatMap((item): PermissionNode[] => {
    if (!item.name) return [];
    const children = item.children
      ? permissionNodes(item.children)
      : [
          ...(item.actions ?? []).map((action) => ({
            name: `${item.name}.${action}`,
            title: `settings.people.roles.actions.${action}`,
            children: [],
          })),
          ...(item.grants ?? []).map((grant) => ({
            name: grant.name,
            title: grant.title,
            children: [],
            ...(grant.dangerous ? { dangerous: true } : {}),
          })),
        ];
    return [{ name: item.name, title: item.title, children }];
  });
}

/** name -> its ancestors (nearest first), for "checking a child includes its parents". */
export function ancestorMap(nodes: readonly PermissionNode[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (list: readonly PermissionNode[], above: string[]) => {
    for (const node of list) {
      out.set(node.name, above);
      walk(node.children, [node.name, ...above]);
    }
  };
  walk(nodes, []);
  return out;
}

/** Every name below a node. */
export function descendantsOf(node: PermissionNode): string[] {
  return node.children.flatMap((child) => [child.name, ...descendantsOf(child)]);
}

/**
 * The new selection after toggling `node`: checking adds it and its ancestors (a child is useless without
 * its parents: spec 6 hides a page whose group is not held); unchecking removes it and its descendants.
 */
export function toggle(
  selected: readonly string[],
  node: PermissionNode,
  ancestors: Map<string, string[]>,
): string[] {
  const set = new Set(selected);
  if (set.has(node.name)) {
    set.delete(node.name);
    for (const name of descendantsOf(node)) set.delete(name);
  } else {
    set.add(node.name);
    for (const name of ancestors.get(node.name) ?? []) set.add(name);
  }
  return [...set];
}
