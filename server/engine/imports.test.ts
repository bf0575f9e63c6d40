import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The engine's files import each other without a cycle (issue 16: the CSV cycle routes -> csv-job-routes ->
 * csv-jobs -> export/import -> csv-jobs -> routes, and hooks <-> records, are opened). Type-only imports
 * count too: a cycle of types is still two files that cannot be understood one without the other.
 */
const ENGINE = import.meta.dirname;

function engineImports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of fs.readdirSync(ENGINE)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const text = fs.readFileSync(path.join(ENGINE, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, false);
    const local = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('./'))
      .map((name) => name.slice(2));
    graph.set(file, [...new Set(local)]);
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the files along it (`a.ts -> b.ts -> a.ts`). */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const walk = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at !== -1) return void cycles.push([...trail.slice(at), file].join(' -> '));
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) walk(file, []);
  return cycles;
}

describe('server/engine imports', () => {
  it('form no cycle', () => {
    expect(cyclesOf(engineImports())).toEqual([]);
  });

  it('the walk finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cyclesOf(graph)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });
});
