import { describe, expect, it } from 'vitest';
import { buildTree } from './tree.ts';
import type { TreeNode } from './tree.ts';

interface Dept {
  id: string;
  parent_id: string;
  title: string;
  sort?: number;
  state?: boolean;
}

const outline = (nodes: TreeNode<Dept>[]): unknown =>
  nodes.map((node) => (node.children.length ? [node.title, outline(node.children)] : node.title));

const rows: Dept[] = [
  { id: '1', parent_id: '0', title: 'HQ', sort: 2 },
  { id: '2', parent_id: '0', title: 'Branch', sort: 1 },
  { id: '3', parent_id: '1', title: 'Sales', sort: 2, state: true },
  { id: '4', parent_id: '1', title: 'Tech', sort: 1 },
  { id: '5', parent_id: '1', title: 'Closed', sort: 3, state: false },
  { id: '6', parent_id: '5', title: 'Under closed', sort: 1 },
];

describe('buildTree', () => {
  it('roots at parent_id "0", orders siblings by sort and hides state false with its subtree', () => {
    expect(outline(buildTree(rows))).toEqual(['Branch', ['HQ', ['Tech', 'Sales']]]);
  });

  it('shows hidden nodes when show-all is asked', () => {
    expect(outline(buildTree(rows, { showAll: true }))).toEqual([
      'Branch',
      ['HQ', ['Tech', 'Sales', ['Closed', ['Under closed']]]],
    ]);
  });

  it('accepts numeric ids and parent ids', () => {
    const tree = buildTree([
      { id: 1, parent_id: 0, sort: 1 },
      { id: 2, parent_id: 1, sort: 1 },
    ]);
    expect(tree[0]?.children[0]?.id).toBe(2);
  });

  it('does not loop forever on a cycle', () => {
    const tree = buildTree([
      { id: 'a', parent_id: '0' },
      { id: 'b', parent_id: 'a' },
      { id: 'a', parent_id: 'b' },
    ]);
    expect(tree).toHaveLength(1);
  });

  it('does not modify its input', () => {
    const copy = structuredClone(rows);
    buildTree(rows);
    expect(rows).toEqual(copy);
  });
});
