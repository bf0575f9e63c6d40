import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mergeConfig } from 'vite';
import type { Plugin, PluginOption } from 'vite';
import base from './vite.config.ts';

const root = path.dirname(fileURLToPath(import.meta.url));
const REAL_REGISTRY = path.join(root, 'resources', 'index.ts');
const FIXTURE_REGISTRY = path.join(root, 'tests', 'fixtures', 'registry.ts');
const FIXTURE_LABELS = path.join(root, 'tests', 'fixtures', 'labels.ts');
/** The custom pages (resources/define-page.ts): the fixture's declarations and screens beside the product's. */
const SWAPPED: Record<string, string> = {
  [path.join(root, 'resources', 'pages.ts')]: path.join(root, 'tests', 'fixtures', 'pages.ts'),
  [path.join(root, 'src', 'admin', 'pageScreens.ts')]: path.join(root, 'tests', 'fixtures', 'pageScreens.ts'),
};

/**
 * The browser tests' build of the engine fixture (tests/e2e/engine.e2e.ts): the app with resources/index.ts
 * swapped for tests/fixtures/registry.ts (the real resources plus gadgets), into dist-e2e/. The product's
 * build (vite.config.ts, dist/) never sees the fixture. Unminified and without size reports: it only has to
 * be quick to build.
 */
const merged = mergeConfig(base, {
  plugins: [fixtureRegistry()],
  build: { outDir: 'dist-e2e', minify: false, reportCompressedSize: false },
});
// Nor the precompressed copies (brotli at its strongest is seconds of CPU beside the product's build): the
// fixture server sends the files as they are.
export default {
  ...merged,
  plugins: (merged.plugins as PluginOption[] | undefined)?.filter(
    (plugin) => !(plugin && 'name' in plugin && plugin.name === 'precompress'),
  ),
};

/**
 * Resolves every import of resources/index.ts to the fixture registry, except the fixture registry's own.
 * The screens' resource descriptors (scripts/lib/resourceDescriptors.ts, which resolves the registry through
 * this plugin) bring the fixture's labels along: importing the registry used to, but a list page does not.
 */
function fixtureRegistry(): Plugin {
  return {
    name: 'e2e-fixture-registry',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (importer && /(pages|pageScreens)\.ts$/.test(source) && !Object.values(SWAPPED).includes(importer)) {
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        return (resolved && SWAPPED[resolved.id]) ?? null;
      }
      if (!importer || importer === FIXTURE_REGISTRY || !source.endsWith('resources/index.ts')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === REAL_REGISTRY ? FIXTURE_REGISTRY : null;
    },
    transform(code, id) {
      return id === '\0virtual:resource-descriptors'
        ? `import ${JSON.stringify(FIXTURE_LABELS)};\n${code}`
        : null;
    },
  };
}
