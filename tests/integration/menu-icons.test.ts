import path from 'node:path';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENU_ICONS_ID, resourceDescriptors } from '../../scripts/lib/resourceDescriptors.ts';

// `virtual:menu-icons` imports the icons the settings menu names and no others: the built-in tree's
// (schemas/permissions.ts) and a resource's `menu.icon` (the fixture registry's gadgets name `Widgets`), so
// naming an icon in a resource is all it takes.
const root = path.resolve(import.meta.dirname, '../..');
const REAL_REGISTRY = path.join(root, 'resources', 'index.ts');
const FIXTURE_REGISTRY = path.join(root, 'tests', 'fixtures', 'registry.ts');

/** Resolves resources/index.ts to the fixture registry (as vite.e2e.config.ts does), but from the fixture's own. */
function fixtureRegistry(): Plugin {
  return {
    name: 'test-fixture-registry',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || importer === FIXTURE_REGISTRY || !source.endsWith('resources/index.ts')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === REAL_REGISTRY ? FIXTURE_REGISTRY : null;
    },
  };
}

let server: ViteDevServer;
let code = '';

beforeAll(async () => {
  server = await createServer({
    root,
    configFile: false,
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, watch: null },
    plugins: [fixtureRegistry(), resourceDescriptors()],
  });
  const resolved = await server.pluginContainer.resolveId(MENU_ICONS_ID);
  const loaded = await server.pluginContainer.load(resolved!.id);
  code = typeof loaded === 'string' ? loaded : (loaded?.code ?? '');
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const imported = () => [...code.matchAll(/from "@mui\/icons-material\/(\w+)"/g)].map((m) => m[1]);

describe('virtual:menu-icons', () => {
  it("imports the built-in menu's icons and a resource's menu.icon", () => {
    expect(imported()).toEqual(expect.arrayContaining(['Settings', 'People', 'Badge', 'Folder', 'Widgets']));
  });

  it('imports no icon the menu does not name', () => {
    expect(imported()).not.toContain('ShoppingCart');
    expect(new Set(imported()).size).toBe(imported().length);
    // Every import is exported under its name.
    for (const name of imported()) expect(code).toContain(`"${name}": I`);
  });
});
