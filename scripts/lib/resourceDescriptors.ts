import path from 'node:path';
import { runnerImport, type Plugin, type ViteDevServer } from 'vite';
import type { ResourceDescriptor } from '../../src/engine/data/descriptor.ts';

/** The module the browser imports: `import { descriptors } from 'virtual:resource-descriptors'`. */
export const DESCRIPTORS_ID = 'virtual:resource-descriptors';
const RESOLVED_ID = `\0${DESCRIPTORS_ID}`;
const ENTRY_ID = 'virtual:describe-registry';
const RESOLVED_ENTRY_ID = `\0${ENTRY_ID}`;
/** The settings menu's icons: `import { MENU_ICONS } from 'virtual:menu-icons'` (src/layouts/menuIcons.tsx). */
export const MENU_ICONS_ID = 'virtual:menu-icons';
const RESOLVED_ICONS_ID = `\0${MENU_ICONS_ID}`;
/** A component name of @mui/icons-material (`Inventory2`); anything else is not imported. */
const ICON_NAME = /^[A-Z][A-Za-z0-9]*$/;

interface Described {
  descriptors: ResourceDescriptor[];
  /** The icon names of the settings menu: schemas/permissions.ts's tree and the resources' `menu.icon`. */
  menuIcons: string[];
  dependencies: string[];
}

/**
 * Serves `virtual:resource-descriptors` and `virtual:menu-icons`.
 *
 * `virtual:resource-descriptors`: `describeResource` (src/engine/data/descriptor.ts) of every resource of
 * resources/index.ts, computed at build time in Node, so the browser's lists, menus and titles read plain
 * data and only forms load zod and the resource declarations. Nothing to run by hand: the descriptors are
 * computed whenever Vite builds or serves the module (`vite`, `vite build`, vitest), with Vite's module
 * runner, and `vite` dev reloads the page when a file they came from changes.
 *
 * `virtual:menu-icons`: `MENU_ICONS`, name -> component of each @mui/icons-material icon the settings menu
 * names (`settingsMenu(resources)` of schemas/permissions.ts: the built-in pages and every resource's
 * `menu.icon`), imported one by one, so the bundle holds the icons the menu shows and no others, and a
 * resource naming another icon gets it with no edit elsewhere. A name that is no icon is left out (the menu
 * shows its generic icon).
 *
 * The registry is resolved through the build's own plugins, so a build that swaps resources/index.ts for
 * another registry (vite.e2e.config.ts) describes that one.
 */
export function resourceDescriptors(): Plugin {
  let root = process.cwd();
  let server: ViteDevServer | undefined;
  let sources = new Set<string>();
  // One evaluation of the registry per build (or per change of its files) serves both modules.
  let described: Promise<Described> | undefined;
  return {
    name: 'resource-descriptors',
    configResolved(config) {
      root = config.root;
    },
    configureServer(devServer) {
      server = devServer;
    },
    buildStart() {
      described = undefined;
    },
    resolveId(id) {
      if (id === DESCRIPTORS_ID) return RESOLVED_ID;
      return id === MENU_ICONS_ID ? RESOLVED_ICONS_ID : null;
    },
    async load(id) {
      if (id !== RESOLVED_ID && id !== RESOLVED_ICONS_ID) return null;
      described ??= (async () => {
        const registry = path.join(root, 'resources', 'index.ts');
        const resolved = await this.resolve(
          registry,
          path.join(root, 'src', 'engine', 'data', 'registry.ts'),
        );
        return describeRegistry(root, resolved?.id ?? registry);
      })();
      const { descriptors, menuIcons, dependencies } = await described.catch((error: unknown) => {
        described = undefined;
        throw error;
      });
      sources = new Set(dependencies.map((file) => path.resolve(root, file)));
      for (const file of sources) this.addWatchFile(file);
      if (id === RESOLVED_ID) return `export const descriptors = ${JSON.stringify(descriptors)};\n`;
      const icons: string[] = [];
      for (const name of menuIcons) {
        if (ICON_NAME.test(name) && (await this.resolve(`@mui/icons-material/${name}`, id))) icons.push(name);
      }
      return (
        icons
          .map((name, i) => `import I${i} from ${JSON.stringify(`@mui/icons-material/${name}`)};\n`)
          .join('') +
        `export const MENU_ICONS = { ${icons.map((name, i) => `${JSON.stringify(name)}: I${i}`).join(', ')} };\n`
      );
    },
    hotUpdate({ file }) {
      if (!server || !sources.has(path.resolve(file))) return;
      described = undefined;
      for (const moduleId of [RESOLVED_ID, RESOLVED_ICONS_ID]) {
        const module = server.moduleGraph.getModuleById(moduleId);
        if (module) server.moduleGraph.invalidateModule(module);
      }
      server.ws.send({ type: 'full-reload' });
    },
  };
}

/**
 * Imports `registry`, src/engine/data/descriptor.ts and schemas/permissions.ts in one module runner (one instance
 * of the field metadata registry, resources/define.ts), describes every resource and lists the settings
 * menu's icon names.
 */
async function describeRegistry(root: string, registry: string): Promise<Described> {
  const describer = path.join(root, 'src', 'engine', 'data', 'descriptor.ts');
  const permissions = path.join(root, 'schemas', 'permissions.ts');
  const entry: Plugin = {
    name: 'describe-registry-entry',
    resolveId: (id) => (id === ENTRY_ID ? RESOLVED_ENTRY_ID : null),
    load: (id) =>
      id === RESOLVED_ENTRY_ID
        ? `import { resources } from ${JSON.stringify(registry)};\n` +
          `import { describeResource } from ${JSON.stringify(describer)};\n` +
          `import { settingsMenu } from ${JSON.stringify(permissions)};\n` +
          'export const descriptors = resources.map((resource) => describeResource(resource));\n' +
          'const icons = new Set();\n' +
          'const visit = (items) => { for (const item of items) { if (item.icon) icons.add(item.icon); visit(item.children ?? []); } };\n' +
          'visit(settingsMenu(resources));\n' +
          'export const menuIcons = [...icons].sort();\n'
        : null,
  };
  const { module, dependencies } = await runnerImport<Omit<Described, 'dependencies'>>(ENTRY_ID, {
    root,
    configFile: false,
    logLevel: 'error',
    plugins: [entry],
  });
  return { descriptors: module.descriptors, menuIcons: module.menuIcons, dependencies };
}
