/**
 * `npm start`, in plain JavaScript so that starting needs no TypeScript transpiler: compiles the server
 * (scripts/start.ts, server/main.ts, everything they import from this repository and the packages) with
 * esbuild into one CommonJS script, dist-server/start.cjs, when that build is stale, then runs it with node
 * from the V8 code cache beside it (loadBundle).
 *
 * - Packages are bundled (issue 37 item 3), except EXTERNAL_PACKAGES and the devDependencies: node loads
 *   those from node_modules as usual (PGlite's wasm and data files, @node-rs/argon2's native binding, pg's
 *   optional pg-native, swagger's files resolve as they do under tsx).
 * - `import.meta.url` in a bundled source file is rewritten to that source file's own URL (relative to the
 *   bundle), so files read beside the sources (server/migrations/*.sql, common-passwords.txt, package.json)
 *   are found as in the source tree.
 * - Fresh when dist-server/.build-stamp.json lists every source file the last build read (esbuild's
 *   metafile; the packages' files are left out) with its current size and modification time, and this
 *   file, package.json and package-lock.json have not changed either.
 * SERVER_DIST_DIR (default dist-server, inside the repository) moves the build. `npm run dev` does not use any of this.
 */
import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import vm from 'node:vm';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = 'scripts/start.ts';
const STAMP_FILE = '.build-stamp.json';
const BUNDLE = 'start.cjs';
const CODE_CACHE = 'start.cjs.v8-cache';
/** When a start without a usable code cache writes one if no request came first (ms after listening). */
const CODE_CACHE_AFTER_MS = 10_000;
/** Besides the bundled sources: this launcher (it holds the build options) and the installed packages. */
const EXTRA_INPUTS = ['scripts/start.mjs', 'package.json', 'package-lock.json'];

/**
 * Packages node loads from node_modules at run time instead of the bundle: PGlite (its wasm and data
 * files, found beside its sources), @node-rs/argon2 (a native binding), pg's optional pg-native, and
 * @fastify/swagger and swagger-ui (their package.json and the UI's static files, read beside their sources).
 * The devDependencies (vite, esbuild: the front-end build `npm start` may run) stay external too.
 */
const EXTERNAL_PACKAGES = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'pg-native',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  // Loaded on first use, after the start: bundling them saves no start time, and a bundled exceljs broke
  // every XLSX export ("URL is not a constructor"). Node loads these as it does under tsx, the tested way.
  // (otplib, qrcode and @simplewebauthn/server are bundled: tests/integration/start-compiled.test.ts uses
  // each against the compiled build.)
  'exceljs',
  'nodemailer',
  'pg-boss',
  'openid-client',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
];

const say = (line) => void process.stdout.write(`[start] ${line}\n`);

process.chdir(repoRoot);
// scripts/start.ts loads .env again; loading it here lets SERVER_DIST_DIR in .env steer the build.
if (fs.existsSync('.env')) process.loadEnvFile('.env');
const outDir = path.resolve(repoRoot, process.env.SERVER_DIST_DIR || 'dist-server');
// node resolves the build's package imports from its own directory upwards: it must sit in the repository.
const inRepo = !path.relative(repoRoot, outDir).startsWith('..') && path.relative(repoRoot, outDir) !== '';

try {
  if (!inRepo)
    throw new Error(`SERVER_DIST_DIR must be a directory inside ${repoRoot}, to find node_modules`);
  const stale = staleReason(outDir);
  let buildMs = 0;
  if (stale) {
    say(`server: compiling with esbuild (${stale}) ...`);
    buildMs = await buildServer(outDir);
    say(`server: compiled into ${path.relative(repoRoot, outDir) || outDir}/ in ${Math.round(buildMs)} ms`);
  } else {
    say(`server: compiled build in ${path.relative(repoRoot, outDir) || outDir}/ is up to date`);
  }
  // Keep the bytecode of functions that ran once (the start's): V8 drops it after a few collections
  // otherwise, and a first start that creates the database collects often, which left a cache without it.
  v8.setFlagsFromString('--no-flush-bytecode');
  const { start, cache, saveCache } = loadBundle(outDir);
  const server = await start(buildMs);
  if (cache === 'used') say('server: started from the V8 code cache');
  else {
    say(
      `server: ${cache === 'none' ? 'no V8 code cache yet' : 'V8 refused the code cache (another node or other flags)'}; ` +
        'one is written after the first answer',
    );
    // After the first answer, so that it holds what a request runs too, not only the start; at the latest
    // CODE_CACHE_AFTER_MS after listening, or as the server stops.
    let saved = false;
    const saveOnce = () => {
      if (!saved) saveCache();
      saved = true;
    };
    server.once('request', (_request, response) => response.once('close', () => setImmediate(saveOnce)));
    setTimeout(saveOnce, CODE_CACHE_AFTER_MS).unref();
    process.once('exit', saveOnce);
  }
} catch (err) {
  process.stderr.write(
    `[start] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
}

/**
 * Runs the bundle and returns its `start`, whether V8 used the code cache beside it (CODE_CACHE), and
 * `saveCache`, which writes that cache. The cache holds the bytecode of every function compiled so far, so
 * the next start neither parses nor compiles what ran before it was taken (issue 37 item 3). V8 checks it
 * against the source and its own version and flags, and refuses it otherwise.
 *
 * Run as a classic script (vm.Script), not imported: node 20's ES module loader takes no code cache. Its
 * `import()` calls of external packages go through `__import`, this module's import(): V8 drops a dynamic
 * import callback from a script compiled from a cache (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
 */
function loadBundle(dir) {
  const file = path.join(dir, BUNDLE);
  const bytes = fs.readFileSync(file);
  // ASCII, as rewriteBundle leaves it: one-byte text, decoded at once.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  let cachedData;
  try {
    cachedData = fs.readFileSync(path.join(dir, CODE_CACHE));
  } catch {
    cachedData = undefined;
  }
  // The wrapper's head sits on the source's first line, as node's own does: the source map's lines hold.
  const wrapped = `(function (exports, require, module, __filename, __dirname, __import) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} };
  const run = script.runInThisContext();
  run(module.exports, createRequire(file), module, file, dir, (specifier) => import(specifier));
  const cache = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'refused' : 'used';
  return {
    start: module.exports.start,
    cache,
    saveCache: () => {
      const target = path.join(dir, CODE_CACHE);
      try {
        const tmp = `${target}.tmp-${process.pid}`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, target); // whole or not at all, also with two servers starting at once
      } catch (err) {
        // A read-only build directory: every start then compiles, as without a cache.
        say(`server: no code cache written (${err instanceof Error ? err.message : String(err)})`);
      }
    },
  };
}

/** Why `dir` needs a new build, or null when it is up to date. */
function staleReason(dir) {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(path.join(dir, STAMP_FILE), 'utf8'));
  } catch {
    return 'no build yet';
  }
  if (!fs.existsSync(path.join(dir, BUNDLE)) || !stamp || typeof stamp.inputs !== 'object') {
    return 'no build yet';
  }
  for (const [file, seen] of Object.entries(stamp.inputs)) {
    const now = fileState(file);
    if (!now || now.size !== seen.size || now.mtimeMs !== seen.mtimeMs) return `${file} changed`;
  }
  for (const file of EXTRA_INPUTS) if (!(file in stamp.inputs) && fileState(file)) return `${file} is new`;
  return null;
}

function fileState(file) {
  try {
    const stat = fs.statSync(path.join(repoRoot, file));
    return { size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return null;
  }
}

/** EXTERNAL_PACKAGES and the devDependencies, each with its subpaths. */
function externalPackages() {
  const { devDependencies = {} } = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  return [...EXTERNAL_PACKAGES, ...Object.keys(devDependencies)].flatMap((name) => [name, `${name}/*`]);
}

/** Compiles the server into `dir` and stamps it; returns the time spent (ms). */
async function buildServer(dir) {
  const started = performance.now();
  const { build } = await import('esbuild');
  const buildStartedAt = Date.now();
  const tmpDir = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmpDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: { start: ENTRY },
    outdir: tmpDir,
    bundle: true,
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    target: 'node20',
    // The packages are bundled too (issue 37 item 3): node then resolves and reads a few files instead of
    // hundreds. Those that find files beside their own sources or load a native binding stay external.
    external: externalPackages(),
    // One script (no chunks) so that one code cache holds it all. `import.meta.url` left in a package is the
    // bundle's URL (sourceUrls gives our own files theirs).
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "var __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    sourcemap: 'linked',
    metafile: true,
    logLevel: 'warning',
    plugins: [sourceUrls(dir)],
  });
  rewriteBundle(path.join(tmpDir, BUNDLE));
  const inputs = {};
  // The packages' own files are left out: package-lock.json stands for them (one stat instead of hundreds).
  const sources = Object.keys(result.metafile.inputs).filter((file) => !/(^|\/)node_modules\//.test(file));
  for (const file of [...sources, ...EXTRA_INPUTS]) {
    const state = fileState(file);
    // A file saved while esbuild ran may be newer than what it read: record it as changed already.
    if (state) inputs[file] = state.mtimeMs >= buildStartedAt ? { ...state, mtimeMs: -1 } : state;
  }
  fs.writeFileSync(
    path.join(tmpDir, STAMP_FILE),
    JSON.stringify({ builtAt: new Date().toISOString(), inputs }, null, 1) + '\n',
  );
  // Swap in the whole directory at once: a server already running from the old build keeps its files.
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmpDir, dir);
  return performance.now() - started;
}

/**
 * Two rewrites of the written bundle. The bundle's `import('<package>')` calls (the external packages loaded
 * on first use) become `__import('<package>')`, which loadBundle passes in: a script compiled from a code
 * cache has no dynamic import callback. Other matches are left (JSDoc types such as `import('../fastify')`
 * in a package's comments): esbuild bundles or refuses every other import() it meets. And the few non-ASCII
 * characters esbuild leaves (in comments: its `charset: 'ascii'` escapes those of the code) become `\u`
 * escapes, so that loadBundle reads the file as one-byte text (a fifth of a UTF-8 decode's time, half the
 * memory). Either shifts the source map by a few columns on the lines concerned only.
 */
function rewriteBundle(file) {
  const code = fs.readFileSync(file, 'utf8');
  const externals = externalPackages();
  const routed = code.replace(/(?<![\w$.])import\((["'])([^"'\s]+)\1\)/g, (whole, quote, specifier) => {
    const name = specifier.startsWith('@')
      ? specifier.split('/').slice(0, 2).join('/')
      : specifier.split('/')[0];
    const external = externals.includes(name) || specifier.startsWith('node:');
    return external ? `__import(${quote}${specifier}${quote})` : whole;
  });
  const ascii = routed.replace(
    /[^\0-\x7f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  fs.writeFileSync(file, ascii);
}

/**
 * esbuild plugin: `import.meta.url` in a repository source file becomes that file's URL, computed from the
 * bundle's own URL at run time, so moving the whole checkout keeps working.
 */
function sourceUrls(dir) {
  return {
    name: 'source-urls',
    setup(b) {
      b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await fs.promises.readFile(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        const relative = path.relative(dir, args.path).split(path.sep).join('/');
        const url = `new URL(${JSON.stringify(relative)}, import.meta.url).href`;
        return {
          contents: source.replaceAll('import.meta.url', url),
          loader: args.path.endsWith('x') ? 'tsx' : 'ts',
        };
      });
    },
  };
}
