import type { InlineConfig } from 'vite';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/** The repository root (this file lives in scripts/lib/). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Everything the front-end build reads: directories are walked, files are taken as they are. */
export const BUILD_INPUTS = [
  'src',
  'locales',
  'schemas',
  'resources',
  'public',
  'index.html',
  'vite.config.ts',
  // The build's own plugins: the resource descriptors (virtual:resource-descriptors) and how react-admin's
  // dependencies resolve.
  'scripts/lib/resourceDescriptors.ts',
  'scripts/lib/vite-lean-deps.ts',
  'package-lock.json',
];

/** Written into dist/ after a successful build; a failed or foreign build leaves none, so the next start rebuilds. */
export const STAMP_FILE = '.build-stamp.json';

export interface InputsFingerprint {
  /** Newest modification time (ms) among the inputs. */
  newestMtimeMs: number;
  /** How many input files there are, so a deleted file also makes the build stale. */
  fileCount: number;
}

export type Freshness =
  { isStale: false } | { isStale: true; reason: string } | { isStale: null; reason: string };

/** Fingerprints the build inputs under `root`. Example: `fingerprintInputs(repoRoot).newestMtimeMs`. */
export function fingerprintInputs(root: string): InputsFingerprint {
  let newestMtimeMs = 0;
  let fileCount = 0;
  const visit = (file: string): void => {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
      return;
    }
    fileCount += 1;
    newestMtimeMs = Math.max(newestMtimeMs, stat.mtimeMs);
  };
  for (const input of BUILD_INPUTS) visit(path.join(root, input));
  return { newestMtimeMs, fileCount };
}

/**
 * Whether `distDir` holds a build of the current inputs. `isStale: null` means there is nothing to build
 * (no index.html). Example: `if (checkFreshness({ root, distDir }).isStale) await buildFrontend(...)`.
 */
export function checkFreshness({ root, distDir }: { root: string; distDir: string }): Freshness {
  if (!fs.existsSync(path.join(root, 'index.html'))) {
    return { isStale: null, reason: 'no index.html in the repository, nothing to build' };
  }
  if (!fs.existsSync(path.join(distDir, 'index.html'))) return { isStale: true, reason: 'no build yet' };
  const stamp = readStamp(distDir);
  if (!stamp) return { isStale: true, reason: `${STAMP_FILE} missing (built by something else?)` };
  const now = fingerprintInputs(root);
  if (now.newestMtimeMs !== stamp.newestMtimeMs || now.fileCount !== stamp.fileCount) {
    return { isStale: true, reason: 'sources changed since the last build' };
  }
  return { isStale: false };
}

/**
 * Builds the front end with Vite's JS API (vite.config.ts in `root`) into `distDir`, then stamps it.
 * Returns the build time in ms. Example: `await buildFrontend({ root: repoRoot, distDir })`.
 */
export async function buildFrontend({
  root,
  distDir,
  logLevel = 'warn',
}: {
  root: string;
  distDir: string;
  logLevel?: 'info' | 'warn' | 'error' | 'silent';
}): Promise<number> {
  const started = performance.now();
  // Fingerprint before building: a file saved during the build then makes the next start rebuild.
  const inputs = fingerprintInputs(root);
  await viteProductionBuild({ root, logLevel, build: { outDir: distDir, emptyOutDir: true } });
  fs.writeFileSync(
    path.join(distDir, STAMP_FILE),
    JSON.stringify({ ...inputs, builtAt: new Date().toISOString() }, null, 2) + '\n',
  );
  return performance.now() - started;
}

/**
 * `vite build` as production whoever calls it. Vite follows NODE_ENV, and a caller may run under vitest
 * (NODE_ENV=test), which would otherwise put React's development code in the bundle. Vite is imported lazily:
 * it and its plugins cost time that a start with a fresh build should not pay.
 */
export async function viteProductionBuild(config: InlineConfig): Promise<void> {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ ...config, mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/**
 * Builds the front end only when `distDir` is stale, telling `log` what it does. Returns the time spent
 * building (0 when nothing was built). Example: `await ensureFrontendBuilt({ log: console.log })`.
 */
export async function ensureFrontendBuilt({
  root = repoRoot,
  distDir = path.resolve(root, process.env.DIST_DIR || 'dist'),
  log,
}: {
  root?: string;
  distDir?: string;
  log: (line: string) => void;
}): Promise<number> {
  const freshness = checkFreshness({ root, distDir });
  if (freshness.isStale === null) {
    log(`front end: ${freshness.reason}; serving the API only`);
    return 0;
  }
  if (!freshness.isStale) {
    log(`front end: up to date in ${path.relative(root, distDir) || distDir}/ (no build needed)`);
    return 0;
  }
  log(`front end: building with Vite (${freshness.reason}) ...`);
  const ms = await buildFrontend({ root, distDir });
  log(`front end: built into ${path.relative(root, distDir) || distDir}/ in ${(ms / 1000).toFixed(1)} s`);
  return ms;
}

function readStamp(distDir: string): InputsFingerprint | null {
  try {
    const raw = JSON.parse(
      fs.readFileSync(path.join(distDir, STAMP_FILE), 'utf8'),
    ) as Partial<InputsFingerprint>;
    if (typeof raw.newestMtimeMs !== 'number' || typeof raw.fileCount !== 'number') return null;
    return { newestMtimeMs: raw.newestMtimeMs, fileCount: raw.fileCount };
  } catch {
    return null;
  }
}
