export interface TreeInput {
  id: string | number;
  parent_id: string | number | null | undefined;
  state?: boolean | null;
  sort?: number | null;
}

export type TreeNode<T extends TreeInput> = T & { children: TreeNode<T>[] };

/**
 * Builds the tree of spec section 4 from a flat list (menus, departments): nodes with state false are left out
 * unless `showAll` (undefined counts as shown); roots have parent_id "0"; siblings are ordered by sort. A node
 * whose parent is hidden or missing is dropped with its subtree rather than promoted to a root.
 *
 * @example
 * buildTree(departments, { showAll: true });
 */
export function buildTree<T extends TreeInput>(nodes: readonly T[], { showAll = false } = {}): TreeNode<T>[] {
  const visible = nodes.filter((node) => showAll || node.state !== false);
  const byParent = new Map<string, TreeNode<T>[]>();
  for (const node of visible) {
    const parent = String(node.parent_id ?? '0');
    const siblings = byParent.get(parent) ?? [];
    siblings.push({ ...node, children: [] });
    byParent.set(parent, siblings);
  }
  const attach = (parent: string, seen: Set<string>): TreeNode<T>[] => {
    const children = (byParent.get(parent) ?? []).sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
    for (const child of children) {
      const id = String(child.id);
      // A cycle in bad data must not hang the page.
      if (!seen.has(id)) child.children = attach(id, new Set(seen).add(id));
    }
    return children;
  };
  return attach('0', new Set(['0']));
}
