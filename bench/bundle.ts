/**
 * `npm run bench:bundle`: gzip sizes of the built front end (building first when dist/ is stale).
 * Prints figures next to their targets and never fails on size.
 *
 * - entry chunk: the module script of index.html;
 * - sign-in page: the entry, index.html's modulepreload links, their static imports (transitively), plus
 *   the lazy chunks the page loads at once with their static imports: the sign-in route's own
 *   (LoginPage-*.js) and the default language's public messages (messages-zh-CN-public-*.js); other lazy
 *   chunks are excluded;
 * - first list page: what opening the admin (AdminApp-*.js, its messages messages-zh-CN-admin-*.js, and the
 *   full app with react-router's data router, App-*.js, which takes over from the signed-out start) and a
 *   list screen adds on top of that.
 * Chunks are found by the file names Vite gives them (the module's name plus a hash).
 * `--packages` also prints which packages weigh most on each page (a fresh build in a temp directory).
 * `--browser` also counts what Chromium fetches on that path (./lib/browserBundle.ts: the real server on
 * dist/, a signed-out visit to the staff list, sign-in, the list's first row), in the same gzip measure,
 * names the chunks it fetched that the file-name rules above do not count, and the reverse, and lists every
 * file it fetched with its size.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import os from 'node:os';
import type { Plugin } from 'vite';
import { ensureFrontendBuilt, repoRoot, viteProductionBuild } from '../scripts/lib/frontend.ts';
import { staticClosure } from './lib/chunks.ts';

const KB = 1000;
const TARGETS = { signIn: 120 * KB, firstList: 330 * KB };
/** File-name prefixes of the lazy chunks each page loads (the first one found per entry counts). */
const SIGN_IN_CHUNKS = ['LoginPage', 'messages-zh-CN-public'];
const FIRST_LIST_CHUNKS = [
  'App',
  'AdminApp',
  'messages-zh-CN-admin',
  'ListScreen',
  'ResourceList',
  'StaffList',
  'ListPage',
];

/** `--packages`: build into a temp directory, recording which package each chunk's code comes from. */
const byPackage = process.argv.includes('--packages');
/** Chunk file -> package (or repository folder) -> its rendered code in that chunk. */
const chunkSources = new Map<string, Map<string, string>>();
const distDir = byPackage
  ? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bundle-'))
  : path.join(repoRoot, 'dist');
const gzCache = new Map<string, number>();
if (byPackage) {
  process.stdout.write(`[bench:bundle] building into ${distDir} to attribute the code to packages ...\n`);
  await viteProductionBuild({
    root: repoRoot,
    logLevel: 'error',
    build: { outDir: distDir, emptyOutDir: true },
    plugins: [recordSources()],
  });
} else {
  await ensureFrontendBuilt({ distDir, log: (line) => process.stdout.write(`[bench:bundle] ${line}\n`) });
}
const indexFile = path.join(distDir, 'index.html');
if (!fs.existsSync(indexFile)) {
  process.stdout.write('[bench:bundle] no dist/index.html: nothing to measure\n');
  process.exit(0);
}

const html = fs.readFileSync(indexFile, 'utf8');
const entry = attr(html, /<script\b[^>]*type="module"[^>]*>/i, 'src');
if (!entry) {
  process.stdout.write('[bench:bundle] index.html has no module script\n');
  process.exit(0);
}
const preloads = [...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/gi)]
  .map((m) => attr(m[0], /.*/s, 'href'))
  .filter((href): href is string => Boolean(href));
const stylesheets = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/gi)]
  .map((m) => attr(m[0], /.*/s, 'href'))
  .filter((href): href is string => Boolean(href));

const allChunks = fs.readdirSync(path.join(distDir, 'assets')).filter((f) => f.endsWith('.js'));
const entryFile = toDistPath(entry);
const initial = staticClosure(distDir, [entryFile, ...preloads.map(toDistPath)]);
const signInLazy = SIGN_IN_CHUNKS.map(findChunk).filter((f): f is string => f !== null);
const signIn = staticClosure(distDir, [...initial, ...signInLazy]);
const listLazy = FIRST_LIST_CHUNKS.map(findChunk).filter((f): f is string => f !== null);
const firstList = staticClosure(distDir, [...signIn, ...listLazy]);
const listAdds = [...firstList].filter((f) => !signIn.has(f));
const everything = allChunks.map((f) => `assets/${f}`);

const rows: { label: string; files: string[]; target?: number }[] = [
  { label: 'entry chunk', files: [entryFile] },
  { label: '  entry + static imports + modulepreloads', files: [...initial] },
  { label: `sign-in page, JS total (${signIn.size} files)`, files: [...signIn], target: TARGETS.signIn },
  { label: `first list page adds (${listAdds.length} files)`, files: listAdds },
  {
    label: `first list page, JS total (${firstList.size} files)`,
    files: [...firstList],
    target: TARGETS.firstList,
  },
  { label: `all JS chunks (${everything.length} files)`, files: everything },
];
if (stylesheets.length) rows.push({ label: 'stylesheets in index.html', files: stylesheets.map(toDistPath) });

process.stdout.write(
  '\nFront-end bundle (gzip, zlib level 9; "as served": the build\'s precompressed .br files, what a\n' +
    'browser accepting brotli downloads; 1 kB = 1000 bytes)\n' +
    `  ${''.padEnd(50)} ${'gzip'.padStart(10)} ${'as served'.padStart(10)}\n`,
);
for (const { label, files, target } of rows) {
  const bytes = gz(files);
  const verdict = target ? `target <= ${fmt(target)}  ${bytes <= target ? 'ok' : 'OVER'}` : '';
  process.stdout.write(
    `  ${label.padEnd(50)} ${fmt(bytes).padStart(10)} ${fmt(served(files)).padStart(10)}   ${verdict}\n`,
  );
}
process.stdout.write(
  `\n  sign-in lazy chunks: ${signInLazy.join(', ') || '(none found)'}\n` +
    `  first-list lazy chunks: ${listLazy.join(', ') || '(none found)'}\n\n  largest chunks:\n`,
);
for (const file of everything.sort((a, b) => gz([b]) - gz([a])).slice(0, 8)) {
  const where = signIn.has(file) ? 'sign-in' : firstList.has(file) ? 'first list' : 'later';
  process.stdout.write(`    ${fmt(gz([file])).padStart(10)}  ${file}  (${where})\n`);
}

if (process.argv.includes('--browser') && !byPackage) {
  const { measureInBrowser } = await import('./lib/browserBundle.ts');
  const fetched = await measureInBrowser({ log: (line) => process.stdout.write(`[bench:bundle] ${line}\n`) });
  const listFetched = fetched.firstList.filter((f) => !fetched.signIn.includes(f));
  process.stdout.write(
    `\n  as Chromium fetched it (gzip, same measure):\n` +
      `  ${`sign-in page (${fetched.signIn.length} files)`.padEnd(50)} ${fmt(gz(fetched.signIn)).padStart(10)}\n` +
      `  ${`first list page adds (${listFetched.length} files)`.padEnd(50)} ${fmt(gz(listFetched)).padStart(10)}\n` +
      `  ${`first list page, JS total (${fetched.firstList.length} files)`.padEnd(50)} ${fmt(gz(fetched.firstList)).padStart(10)}   target <= ${fmt(TARGETS.firstList)}  ${gz(fetched.firstList) <= TARGETS.firstList ? 'ok' : 'OVER'}\n`,
  );
  const differ = (label: string, files: string[]) =>
    process.stdout.write(
      `    ${label}: ${files.length ? files.map((f) => `${f} (${fmt(gz([f]))})`).join(', ') : 'none'}\n`,
    );
  differ(
    'fetched on the sign-in page, not counted above',
    fetched.signIn.filter((f) => !signIn.has(f)),
  );
  differ(
    'counted above for the sign-in page, not fetched',
    [...signIn].filter((f) => !fetched.signIn.includes(f)),
  );
  differ(
    'fetched for the first list, not counted above',
    listFetched.filter((f) => !firstList.has(f)),
  );
  differ(
    'counted above for the first list, not fetched',
    listAdds.filter((f) => !fetched.firstList.includes(f)),
  );
  process.stdout.write('\n  every file Chromium fetched on the path (gzip), largest first:\n');
  for (const file of [...fetched.firstList].sort((a, b) => gz([b]) - gz([a]))) {
    const page = fetched.signIn.includes(file) ? 'sign-in' : 'first list';
    process.stdout.write(`    ${fmt(gz([file])).padStart(10)}  ${file}  (${page})\n`);
  }
}

if (byPackage) {
  const { transformSync } = await import('esbuild');
  const report = (label: string, files: Iterable<string>): void => {
    const sizes = new Map<string, number>();
    for (const file of files) {
      for (const [name, source] of chunkSources.get(file) ?? []) {
        // A package's code in one chunk, minified and gzipped alone: an estimate (one file compresses better).
        let minified = source;
        try {
          minified = transformSync(source, { minify: true, loader: 'js' }).code;
        } catch {
          // Left as rendered (a fragment esbuild cannot parse on its own).
        }
        sizes.set(name, (sizes.get(name) ?? 0) + zlib.gzipSync(minified, { level: 9 }).length);
      }
    }
    process.stdout.write(`\n  ${label}, largest packages (per chunk, minified and gzipped alone):\n`);
    for (const [name, bytes] of [...sizes].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
      process.stdout.write(`    ${fmt(bytes).padStart(10)}  ${name}\n`);
    }
  };
  report('sign-in page', signIn);
  report('first list page adds', listAdds);
  fs.rmSync(distDir, { recursive: true, force: true });
}

/** Vite plugin: fills `chunkSources` from the bundle Rollup writes. */
function recordSources(): Plugin {
  return {
    name: 'bench-bundle-sources',
    generateBundle(_options, bundle) {
      for (const [file, chunk] of Object.entries(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const sources = new Map<string, string>();
        for (const [id, info] of Object.entries(chunk.modules)) {
          sources.set(packageOf(id), (sources.get(packageOf(id)) ?? '') + (info.code ?? '') + '\n');
        }
        chunkSources.set(file, sources);
      }
    },
  };
}

/** `.../node_modules/@mui/material/esm/Button.js` -> `@mui/material`; `<repo>/src/engine/x.ts` -> `src/engine`. */
function packageOf(id: string): string {
  const inPackage = id.split('node_modules/').pop()!;
  if (inPackage !== id)
    return inPackage
      .split('/')
      .slice(0, inPackage.startsWith('@') ? 2 : 1)
      .join('/');
  return path.relative(repoRoot, id.replace(/\?.*$/, '')).split(path.sep).slice(0, 2).join('/');
}

function findChunk(prefix: string): string | null {
  const found = allChunks.find((f) => f.startsWith(`${prefix}-`));
  return found ? `assets/${found}` : null;
}

function gz(files: string[]): number {
  let total = 0;
  for (const file of files) {
    let size = gzCache.get(file);
    if (size === undefined) {
      size = zlib.gzipSync(read(file), { level: 9 }).length;
      gzCache.set(file, size);
    }
    total += size;
  }
  return total;
}

/** Bytes on the wire for a brotli-accepting browser: the .br file when the build wrote one, else the file. */
function served(files: string[]): number {
  let total = 0;
  for (const file of files) {
    const compressed = path.join(distDir, `${file}.br`);
    total += fs.existsSync(compressed) ? fs.statSync(compressed).size : read(file).length;
  }
  return total;
}

function read(file: string): Buffer {
  return fs.readFileSync(path.join(distDir, file));
}

function toDistPath(url: string): string {
  return url.replace(/^\//, '');
}

function attr(tagSource: string, tagPattern: RegExp, name: string): string | null {
  const tag = tagSource.match(tagPattern)?.[0] ?? '';
  return tag.match(new RegExp(`\\b${name}="([^"]+)"`))?.[1] ?? null;
}

function fmt(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} kB`;
}
