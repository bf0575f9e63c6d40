import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, createServer, type Rollup, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leanDependencies } from '../../scripts/lib/vite-lean-deps.ts';
import jsonExport from '../../src/lib/jsonexportOnDemand.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lean-deps-'));
// The repository's packages, as the product builds with them.
fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Chunk {
  ids: string[];
  isEntry: boolean;
  /** The chunks it imports statically (downloaded with it) and dynamically (on demand). */
  imports: string[];
  dynamicImports: string[];
}

/** The entries the tests below bundle, each what one kind of page imports. */
const ENTRIES = {
  lodash:
    "import get from 'lodash/get.js'; import isEqual from 'lodash/isEqual';\n" +
    'console.log(get({ a: { b: 1 } }, "a.b"), isEqual([1], [1]));\n',
  exporter: "import { defaultExporter } from 'ra-core'; console.log(defaultExporter);\n",
  // What a list screen renders: react-admin's list, its filter, column and pagination controls, a delete
  // confirmation, and MUI's tooltips and selects.
  list:
    "import { List, DataTable, FilterButton, SelectColumnsButton, Pagination, DeleteWithConfirmButton, Confirm, BulkDeleteButton } from 'react-admin';\n" +
    "import { Tooltip, Select, Autocomplete } from '@mui/material';\n" +
    'console.log(List, DataTable, FilterButton, SelectColumnsButton, Pagination, DeleteWithConfirmButton, Confirm, BulkDeleteButton, Tooltip, Select, Autocomplete);\n',
  muiExports:
    "import { popperClasses, ModalManager, getOffsetTop, PopoverPaper, menuClasses, dialogClasses } from '@mui/material';\n" +
    'console.log(popperClasses.root, new ModalManager(), getOffsetTop, PopoverPaper, menuClasses, dialogClasses);\n',
  configurableList:
    "import { DatagridConfigurable, TextField } from 'react-admin';\n" +
    "import { ThemeProvider, createTheme } from '@mui/material/styles';\n" +
    'console.log(DatagridConfigurable, TextField, ThemeProvider, createTheme({ palette: { mode: "dark" } }));\n',
  extendTheme:
    "import { extendTheme } from '@mui/material/styles';\nconsole.log(extendTheme({}).vars !== undefined);\n",
};

/** A module id relative to the repository; node_modules may be a symlink (a worktree's), which Vite resolves. */
const nodeModules = fs.realpathSync(path.join(repoRoot, 'node_modules'));
const relative = (id: string) =>
  id.startsWith(nodeModules + path.sep)
    ? `node_modules/${id.slice(nodeModules.length + 1)}`
    : path.relative(repoRoot, id);

let built: Promise<Rollup.RollupOutput> | null = null;
/**
 * Every entry of ENTRIES in one Rollup build with the plugin (react-admin is bundled once for all the tests,
 * not once per test), made on first use. Rollup puts a module in a chunk by which entries need it, so the
 * chunks an entry loads hold what that entry needs, as if it were built alone.
 */
function buildAll(): Promise<Rollup.RollupOutput> {
  built ??= (async () => {
    const input: Record<string, string> = {};
    for (const [name, source] of Object.entries(ENTRIES)) {
      input[name] = path.join(dir, `${name}.js`);
      fs.writeFileSync(input[name], source);
    }
    return (await build({
      configFile: false,
      root: dir,
      logLevel: 'silent',
      plugins: [leanDependencies()],
      build: { write: false, rollupOptions: { input }, minify: false },
    })) as Rollup.RollupOutput;
  })();
  return built;
}
// Built before the first test, so no test's own timeout has to cover it.
beforeAll(() => buildAll(), 300_000);

/**
 * The chunks entry `name` of ENTRIES loads, statically or on demand, with their module ids (relative to the
 * repo); its own chunk is the only one with `isEntry`.
 */
async function bundle(name: keyof typeof ENTRIES): Promise<Map<string, Chunk>> {
  const all = new Map<string, Chunk>();
  let entryFile = '';
  for (const chunk of (await buildAll()).output) {
    if (chunk.type !== 'chunk') continue;
    const { imports, dynamicImports } = chunk;
    const isEntry = chunk.isEntry && chunk.name === name;
    if (isEntry) entryFile = chunk.fileName;
    all.set(chunk.fileName, {
      ids: Object.keys(chunk.modules).map(relative),
      isEntry,
      imports,
      dynamicImports,
    });
  }
  const chunks = new Map<string, Chunk>();
  const visit = (file: string): void => {
    if (chunks.has(file)) return;
    const chunk = all.get(file)!;
    chunks.set(file, chunk);
    for (const next of [...chunk.imports, ...chunk.dynamicImports]) visit(next);
  };
  visit(entryFile);
  return chunks;
}

/** The module ids of entry `name`'s page: its chunk and what it imports statically (downloaded with it). */
async function pageOf(name: keyof typeof ENTRIES): Promise<string[]> {
  const chunks = await bundle(name);
  const entryFile = [...chunks].find(([, c]) => c.isEntry)![0];
  return [...withStaticImports(chunks, entryFile)].flatMap((file) => chunks.get(file)!.ids);
}

describe('leanDependencies (vite plugin)', () => {
  it('bundles lodash-es in place of lodash/<name>.js, with none of the CommonJS files', async () => {
    const chunks = await bundle('lodash');
    const ids = [...chunks.values()].flatMap((c) => c.ids);
    expect(ids).toContain('node_modules/lodash-es/get.js');
    expect(ids).toContain('node_modules/lodash-es/isEqual.js');
    expect(ids.filter((id) => id.startsWith('node_modules/lodash/'))).toEqual([]);
  }, 60_000);

  it("gives react-admin's default exporter jsonexport on demand: a lazy chunk, not the importer's", async () => {
    const chunks = await bundle('exporter');
    const page = await pageOf('exporter');
    expect(page).toContain('src/lib/jsonexportOnDemand.ts');
    expect(page.filter((id) => id.includes('node_modules/jsonexport/'))).toEqual([]);
    const lazy = [...chunks.values()].flatMap((c) => c.ids).filter((id) => !page.includes(id));
    expect(lazy).toContain('node_modules/jsonexport/dist/index.js');
  }, 60_000);
});

/** `vite dev` with the plugin (no pre-bundling), for `use`; closed afterwards. */
async function withDevServer(use: (server: ViteDevServer) => Promise<void>): Promise<void> {
  const server = await createServer({
    configFile: false,
    root: dir,
    logLevel: 'silent',
    plugins: [leanDependencies()],
    server: { middlewareMode: true, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    await use(server);
  } finally {
    await server.close();
  }
}

/** Every chunk `file` downloads with it: itself and its static imports, transitively. */
function withStaticImports(chunks: Map<string, Chunk>, file: string, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const imported of chunks.get(file)!.imports) withStaticImports(chunks, imported, into);
  return into;
}

describe("leanDependencies: MUI's closed-until-opened components on demand", () => {
  const REAL =
    /^node_modules\/@mui\/material\/esm\/(Popper|Modal|Popover|Menu|Dialog)\/(?!\w+Classes\.js|DialogContext\.js)/;

  it('leaves Popper (and @popperjs/core), Modal, Popover, Menu and Dialog out of a list page, each a download', async () => {
    const chunks = await bundle('list');
    const page = await pageOf('list');
    expect(page.filter((id) => REAL.test(id) || id.includes('@popperjs/'))).toEqual([]);
    // Its stand-ins (Modal's own is not needed: Popover and Dialog download the real Modal with them).
    for (const name of ['Popper', 'Popover', 'Menu', 'Dialog'])
      expect(page).toContain(`src/lib/muiOnDemand/${name}.ts`);
    // The real ones are in the build, as downloads of their own.
    const lazy = [...chunks.values()].flatMap((c) => c.ids).filter((id) => !page.includes(id));
    for (const file of [
      'Popper/Popper.js',
      'Modal/Modal.js',
      'Popover/Popover.js',
      'Menu/Menu.js',
      'Dialog/Dialog.js',
    ])
      expect(lazy).toContain(`node_modules/@mui/material/esm/${file}`);
    expect(lazy).toContain('node_modules/@popperjs/core/lib/createPopper.js');
    // Nothing waits for another download: a Menu's download brings its Popover and Modal along.
    const menuChunk = [...chunks].find(([, c]) =>
      c.ids.includes('node_modules/@mui/material/esm/Menu/Menu.js'),
    )![0];
    const withMenu = [...withStaticImports(chunks, menuChunk)].flatMap((file) => chunks.get(file)!.ids);
    expect(withMenu).toContain('node_modules/@mui/material/esm/Popover/Popover.js');
    expect(withMenu).toContain('node_modules/@mui/material/esm/Modal/Modal.js');
  }, 120_000);

  it("keeps the index's other exports, and a used one comes without the real component", async () => {
    const page = await pageOf('muiExports');
    expect(page).toContain('node_modules/@mui/material/esm/Popover/Popover.js?mui-on-demand-exports');
    expect(page).toContain('node_modules/@mui/material/esm/Modal/ModalManager.js?mui-on-demand-exports');
    // Popover.js's paper is there, its component (and Modal's) a download.
    expect(page).not.toContain('node_modules/@mui/material/esm/Popover/Popover.js');
    expect(page).not.toContain('node_modules/@mui/material/esm/Modal/Modal.js');
  }, 120_000);

  it('leaves `vite dev` as it was: there MUI comes pre-bundled, whole', async () => {
    await withDevServer(async (server) => {
      const importer = path.join(dir, 'main.js');
      const resolved = await server.pluginContainer.resolveId('@mui/material/Menu', importer);
      expect(resolved?.id).toMatch(/node_modules\/@mui\/material\/esm\/Menu\/index\.js$/);
      const barrel = await server.pluginContainer.resolveId(
        './Dialog/index.js',
        path.join(dir, 'node_modules/@mui/material/esm/index.js'),
      );
      expect(barrel?.id).toMatch(/@mui\/material\/esm\/Dialog\/index\.js$/);
    });
  }, 60_000);
});

describe('leanDependencies: stand-ins for modules no page runs (STAND_INS)', () => {
  const LEFT_OUT = [
    'node_modules/ra-ui-materialui/dist/list/datagrid/DatagridEditor.js',
    'node_modules/ra-ui-materialui/dist/preferences/FieldsSelector.js',
    'node_modules/ra-ui-materialui/dist/preferences/FieldToggle.js',
    'node_modules/@mui/material/esm/Switch/Switch.js',
    'node_modules/@mui/material/esm/styles/ThemeProviderWithVars.js',
    'node_modules/@mui/material/esm/styles/createThemeWithVars.js',
    'node_modules/@mui/system/esm/cssVars/createCssVarsProvider.js',
    'node_modules/@mui/system/esm/cssVars/useCurrentColorScheme.js',
  ];

  it("leaves react-admin's datagrid editor and MUI's CSS-variables theming out of a themed configurable list", async () => {
    const chunks = await bundle('configurableList');
    const page = await pageOf('configurableList');
    expect(page.filter((id) => LEFT_OUT.includes(id))).toEqual([]);
    for (const standIn of ['DatagridEditor.tsx', 'ThemeProviderWithVars.tsx', 'createThemeWithVars.ts'])
      expect(page).toContain(`src/lib/standIns/${standIn}`);
    // The on-demand ones are downloads of their own; createThemeWithVars (an error) is nowhere.
    const all = [...chunks.values()].flatMap((c) => c.ids);
    expect(all).toContain('node_modules/ra-ui-materialui/dist/list/datagrid/DatagridEditor.js');
    expect(all).toContain('node_modules/@mui/material/esm/styles/ThemeProviderWithVars.js');
    expect(all).not.toContain('node_modules/@mui/material/esm/styles/createThemeWithVars.js');
  }, 120_000);

  it('gives the real modules to every other importer: the MUI barrel still exports extendTheme', async () => {
    expect(await pageOf('extendTheme')).toContain(
      'node_modules/@mui/material/esm/styles/createThemeWithVars.js',
    );
  }, 120_000);

  it('leaves `vite dev` as it was', async () => {
    await withDevServer(async (server) => {
      const importer = path.join(repoRoot, 'node_modules/@mui/material/esm/styles/createTheme.js');
      const resolved = await server.pluginContainer.resolveId('./createThemeWithVars.js', importer);
      expect(relative(resolved!.id)).toBe('node_modules/@mui/material/esm/styles/createThemeWithVars.js');
    });
  }, 60_000);
});

describe('jsonexportOnDemand', () => {
  it('turns rows into CSV through jsonexport, with or without options', async () => {
    const rows = [
      { id: 1, name: 'Ann' },
      { id: 2, name: 'Bo, Jr.' },
    ];
    const plain = await new Promise<string>((resolve, reject) => {
      void jsonExport(rows, (error: Error | null, csv?: string) => (error ? reject(error) : resolve(csv!)));
    });
    expect(plain.split(/\r?\n/)).toEqual(['id,name', '1,Ann', '2,"Bo, Jr."']);
    const renamed = await new Promise<string>((resolve, reject) => {
      void jsonExport(rows, { rename: ['ID', 'Name'] }, (error: Error | null, csv?: string) =>
        error ? reject(error) : resolve(csv!),
      );
    });
    expect(renamed.split(/\r?\n/)[0]).toBe('ID,Name');
    // No callback: the promise gives the CSV.
    expect(String(await jsonExport([{ a: 1 }])).split(/\r?\n/)).toEqual(['a', '1']);
  });
});
