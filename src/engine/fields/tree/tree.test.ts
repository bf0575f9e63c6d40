import { describe, expect, it } from 'vitest';
import { ancestorsOf, buildTree, typeAhead, visibleRows } from './tree.ts';

const records = [
  { id: 1, name: 'Head office', parent_id: '0' },
  { id: 2, name: 'Research', parent_id: '1' },
  { id: 3, name: 'Backend', parent_id: '2' },
  { id: 4, name: 'Reception', parent_id: '1' },
  { id: 5, name: 'Loop A', parent_id: '6' },
  { id: 6, name: 'Loop B', parent_id: '5' },
];
const options = { parentField: 'parent_id', labelField: 'name' };

describe('the tree of a tree resource', () => {
  it('keeps the list order among siblings; a missing parent or a cycle makes a root', () => {
    const roots = buildTree(records, options);
    expect(roots.map((n) => n.label)).toEqual(['Head office', 'Loop A', 'Loop B']);
    expect(roots[0]!.children.map((n) => n.label)).toEqual(['Research', 'Reception']);
    expect(ancestorsOf(roots, '3')).toEqual(['1', '2']);
  });

  it('shows open branches, and with a search the matches with their ancestors', () => {
    const roots = buildTree(records, options);
    const labels = (rows: ReturnType<typeof visibleRows>) => rows.map((r) => `${r.depth}:${r.node.label}`);
    expect(labels(visibleRows(roots, new Set()))).toEqual(['0:Head office', '0:Loop A', '0:Loop B']);
    expect(labels(visibleRows(roots, new Set(['1'])))).toEqual([
      '0:Head office',
      '1:Research',
      '1:Reception',
      '0:Loop A',
      '0:Loop B',
    ]);
    expect(labels(visibleRows(roots, new Set(), 'BACK'))).toEqual([
      '0:Head office',
      '1:Research',
      '2:Backend',
    ]);
    expect(visibleRows(roots, new Set(), 'none')).toEqual([]);
  });

  it('type-ahead: a prefix of several letters, and one letter again goes to the next', () => {
    const rows = visibleRows(buildTree(records, options), new Set(['1', '2']));
    const at = (index: number) => rows[index]?.node.label;
    expect(at(typeAhead(rows, 0, 'r'))).toBe('Research');
    expect(at(typeAhead(rows, 1, 're'))).toBe('Research');
    expect(at(typeAhead(rows, 1, 'rec'))).toBe('Reception');
    expect(at(typeAhead(rows, 1, 'rr'))).toBe('Reception');
    expect(at(typeAhead(rows, 3, 'r'))).toBe('Research');
    expect(typeAhead(rows, 0, 'x')).toBe(-1);
  });
});
