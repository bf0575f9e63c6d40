import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * The chunk files of a Vite build reachable from `files` (paths relative to `distDir`, e.g.
 * `assets/index-abc.js`) through static imports; a dynamic `import()` is not followed.
 */
export function staticClosure(distDir: string, files: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...files];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = fs.readFileSync(path.join(distDir, file), 'utf8');
    // Rollup's output: `import{a as b}from"./x.js"`, `import"./x.js"`, `export{a}from"./x.js"`.
    // A dynamic `import("./x.js")` has "(" after the keyword, so it never matches.
    for (const m of code.matchAll(
      /\b(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["'](\.{1,2}\/[^"']+?\.js)["']/g,
    )) {
      queue.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!)));
    }
  }
  return seen;
}

const gzCache = new Map<string, number>();

/** The sum of the files' gzip sizes (zlib level 9, each file alone, as a server sends them). */
export function gzipSize(distDir: string, files: Iterable<string>): number {
  let total = 0;
  for (const file of files) {
    const full = path.join(distDir, file);
    let size = gzCache.get(full);
    if (size === undefined) {
      size = zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length;
      gzCache.set(full, size);
    }
    total += size;
  }
  return total;
}
