import path from 'node:path';
import { runnerImport, type Plugin, type ViteDevServer } from 'vite';
import type { ResourceDescriptor } from '../../src/engine/descriptor.ts';

/** The module the browser imports: `import { descriptors } from 'virtual:resource-descriptors'`. */
export const DESCRIPTORS_ID = 'virtual:resource-descriptors';
const RESOLVED_ID = `\0${DESCRIPTORS_ID}`;
const ENTRY_ID = 'virtual:describe-registry';
const RESOLVED_ENTRY_ID = `\0${ENTRY_ID}`;

/**
 * Serves `virtual:resource-descriptors`: `describeResource` (src/engine/descriptor.ts) of every resource of
 * resources/index.ts, computed at build time in Node, so the browser's lists, menus and titles read plain
 * data and only forms load zod and the resource declarations. Nothing to run by hand: the descriptors are
 * computed whenever Vite builds or serves the module (`vite`, `vite build`, vitest), with Vite's module
 * runner, and `vite` dev reloads the page when a file they came from changes.
 *
 * The registry is resolved through the build's own plugins, so a build that swaps resources/index.ts for
 * another registry (vite.e2e.config.ts) describes that one.
 */
export function resourceDescriptors(): Plugin {
  let root = process.cwd();
  let server: ViteDevServer | undefined;
  let sources = new Set<string>();
  return {
    name: 'resource-descriptors',
    configResolved(config) {
      root = config.root;
    },
    configureServer(devServer) {
      server = devServer;
    },
    resolveId(id) {
      return id === DESCRIPTORS_ID ? RESOLVED_ID : null;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return null;
      const registry = path.join(root, 'resources', 'index.ts');
      const resolved = await this.resolve(registry, path.join(root, 'src', 'engine', 'registry.ts'));
      const { descriptors, dependencies } = await describeRegistry(root, resolved?.id ?? registry);
      sources = new Set(dependencies.map((file) => path.resolve(root, file)));
      for (const file of sources) this.addWatchFile(file);
      return `export const descriptors = ${JSON.stringify(descriptors)};\n`;
    },
    hotUpdate({ file }) {
      if (!server || !sources.has(path.resolve(file))) return;
      const module = server.moduleGraph.getModuleById(RESOLVED_ID);
      if (module) server.moduleGraph.invalidateModule(module);
      server.ws.send({ type: 'full-reload' });
    },
  };
}

/**
 * Imports `registry` and src/engine/descriptor.ts in one module runner (one instance of the field
 * metadata registry, resources/define.ts) and describes every resource.
 */
async function describeRegistry(
  root: string,
  registry: string,
): Promise<{ descriptors: ResourceDescriptor[]; dependencies: string[] }> {
  const describer = path.join(root, 'src', 'engine', 'descriptor.ts');
  const entry: Plugin = {
    name: 'describe-registry-entry',
    resolveId: (id) => (id === ENTRY_ID ? RESOLVED_ENTRY_ID : null),
    load: (id) =>
      id === RESOLVED_ENTRY_ID
        ? `import { resources } from ${JSON.stringify(registry)};\n` +
          `import { describeResource } from ${JSON.stringify(describer)};\n` +
          'export const descriptors = resources.map((resource) => describeResource(resource));\n'
        : null,
  };
  const { module, dependencies } = await runnerImport<{ descriptors: ResourceDescriptor[] }>(ENTRY_ID, {
    root,
    configFile: false,
    logLevel: 'error',
    plugins: [entry],
  });
  return { descriptors: module.descriptors, dependencies };
}
