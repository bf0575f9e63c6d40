/** One record of a tree resource, placed under its parent. */
export interface TreeNode {
  id: string;
  label: string;
  parentId: string | null;
  children: TreeNode[];
}

/** One line the picker shows: a node at its depth, open or closed. */
export interface TreeRow {
  node: TreeNode;
  depth: number;
  hasChildren: boolean;
  isExpanded: boolean;
}

/**
 * Builds the tree from a list's records in the list's order (siblings keep it). A record whose parent is not
 * in the list (the root's "0", or a department outside the caller's scope) is a root, so a caller sees every
 * record it may see, under the nearest ancestor it may also see.
 *
 * @example
 * buildTree([{ id: '1', parent_id: '0', name: 'HQ' }], { parentField: 'parent_id', labelField: 'name' })
 */
export function buildTree(
  records: readonly Record<string, unknown>[],
  { parentField, labelField }: { parentField: string; labelField: string },
): TreeNode[] {
  const byId = new Map<string, TreeNode>();
  for (const record of records) {
    const id = String(record.id);
    const parent = record[parentField];
    const label = record[labelField];
    byId.set(id, {
      id,
      label: label === undefined || label === null ? id : String(label),
      parentId: parent === undefined || parent === null ? null : String(parent),
      children: [],
    });
  }
  const roots: TreeNode[] = [];
  for (const node of byId.values()) {
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    // A cycle in the data would hide its records: a node is never put under one of its own descendants.
    if (parent && parent !== node && !isAncestor(node, parent, byId)) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/**
 * The lines to show: the open branches, or, with a search, every node whose label contains it (any case)
 * with its ancestors, all open.
 */
export function visibleRows(
  roots: readonly TreeNode[],
  expanded: ReadonlySet<string>,
  query = '',
): TreeRow[] {
  const needle = query.trim().toLocaleLowerCase();
  const rows: TreeRow[] = [];
  const walk = (nodes: readonly TreeNode[], depth: number) => {
    for (const node of nodes) {
      if (needle && !matchesBelow(node, needle)) continue;
      const isExpanded = needle ? node.children.length > 0 : expanded.has(node.id);
      rows.push({ node, depth, hasChildren: node.children.length > 0, isExpanded });
      if (isExpanded) walk(node.children, depth + 1);
    }
  };
  walk(roots, 0);
  return rows;
}

/** The ids of a node's ancestors, nearest last (to open the branch of the chosen record). */
export function ancestorsOf(roots: readonly TreeNode[], id: string): string[] {
  const path: string[] = [];
  const find = (nodes: readonly TreeNode[]): boolean => {
    for (const node of nodes) {
      if (node.id === id) return true;
      path.push(node.id);
      if (find(node.children)) return true;
      path.pop();
    }
    return false;
  };
  return find(roots) ? path : [];
}

/** The node with this id anywhere in the tree. */
export function findNode(roots: readonly TreeNode[], id: string): TreeNode | undefined {
  for (const node of roots) {
    if (node.id === id) return node;
    const found = findNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/**
 * Type-ahead: the first row after `from` (wrapping) whose label starts with the typed text (any case);
 * typing one letter again goes on to the next row with that letter.
 */
export function typeAhead(rows: readonly TreeRow[], from: number, typed: string): number {
  const text = typed.toLocaleLowerCase();
  const isRepeat = text.length > 1 && [...text].every((c) => c === text[0]);
  const prefix = isRepeat ? text[0]! : text;
  const start = isRepeat || text.length === 1 ? from + 1 : from;
  for (let i = 0; i < rows.length; i++) {
    const index = (start + i + rows.length) % rows.length;
    if (rows[index]!.node.label.toLocaleLowerCase().startsWith(prefix)) return index;
  }
  return -1;
}

function matchesBelow(node: TreeNode, needle: string): boolean {
  return (
    node.label.toLocaleLowerCase().includes(needle) || node.children.some((c) => matchesBelow(c, needle))
  );
}

function isAncestor(node: TreeNode, of: TreeNode, byId: Map<string, TreeNode>): boolean {
  const seen = new Set<string>();
  let current: TreeNode | undefined = of;
  while (current && current.parentId !== null && !seen.has(current.id)) {
    seen.add(current.id);
    if (current.parentId === node.id) return true;
    current = byId.get(current.parentId);
  }
  return false;
}
