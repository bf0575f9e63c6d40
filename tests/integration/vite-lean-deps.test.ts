import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, createServer, type Plugin, type Rollup } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { leanDependencies } from '../../scripts/lib/vite-lean-deps.ts';
import jsonExport from '../../src/lib/jsonexportOnDemand.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lean-deps-'));
// The repository's packages, as the product builds with them.
fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A module id relative to the repository; a package's from its `node_modules/` on (the folder may be a link). */
function relativeId(id: string): string {
  const packages = id.indexOf('/node_modules/');
  return packages >= 0 ? id.slice(packages + 1) : path.relative(repoRoot, id);
}

interface Chunk {
  ids: string[];
  isEntry: boolean;
  /** The chunks it imports statically (downloaded with it) and dynamically (on demand). */
  imports: string[];
  dynamicImports: string[];
}

/** Builds `source` as an entry with the plugin; returns each chunk's module ids (relative to the repo). */
async function bundle(source: string): Promise<Map<string, Chunk>> {
  const entry = path.join(dir, `entry-${Math.random().toString(36).slice(2)}.js`);
  fs.writeFileSync(entry, source);
  const output = (await build({
    configFile: false,
    root: dir,
    logLevel: 'silent',
    plugins: [leanDependencies()],
    build: { write: false, rollupOptions: { input: entry }, minify: false },
  })) as Rollup.RollupOutput;
  const chunks = new Map<string, Chunk>();
  for (const chunk of output.output) {
    if (chunk.type !== 'chunk') continue;
    const ids = Object.keys(chunk.modules).map(relativeId);
    const { isEntry, imports, dynamicImports } = chunk;
    chunks.set(chunk.fileName, { ids, isEntry, imports, dynamicImports });
  }
  return chunks;
}

describe('leanDependencies (vite plugin)', () => {
  it('bundles lodash-es in place of lodash/<name>.js, with none of the CommonJS files', async () => {
    const chunks = await bundle(
      "import get from 'lodash/get.js'; import isEqual from 'lodash/isEqual';\n" +
        'console.log(get({ a: { b: 1 } }, "a.b"), isEqual([1], [1]));\n',
    );
    const ids = [...chunks.values()].flatMap((c) => c.ids);
    expect(ids).toContain('node_modules/lodash-es/get.js');
    expect(ids).toContain('node_modules/lodash-es/isEqual.js');
    expect(ids.filter((id) => id.startsWith('node_modules/lodash/'))).toEqual([]);
  }, 60_000);

  it("gives react-admin's default exporter jsonexport on demand: a lazy chunk, not the importer's", async () => {
    const chunks = await bundle("import { defaultExporter } from 'ra-core'; console.log(defaultExporter);\n");
    const entry = [...chunks.values()].find((c) => c.isEntry)!;
    expect(entry.ids).toContain('src/lib/jsonexportOnDemand.ts');
    expect(entry.ids.filter((id) => id.includes('node_modules/jsonexport/'))).toEqual([]);
    const lazy = [...chunks.values()].filter((c) => !c.isEntry).flatMap((c) => c.ids);
    expect(lazy).toContain('node_modules/jsonexport/dist/index.js');
  }, 60_000);
});

/** Every chunk `file` downloads with it: itself and its static imports, transitively. */
function withStaticImports(chunks: Map<string, Chunk>, file: string, into = new Set<string>()): Set<string> {
  if (into.has(file)) return into;
  into.add(file);
  for (const imported of chunks.get(file)!.imports) withStaticImports(chunks, imported, into);
  return into;
}

describe("leanDependencies: MUI's and react-admin's own modules as they ship them (issue 29 item 2)", () => {
  it('swaps nothing of MUI or react-admin: a list page carries the real Popper, Modal, Menu and Dialog', async () => {
    // What a list screen renders: react-admin's list, its filter, column and pagination controls, a delete
    // confirmation, and MUI's tooltips and selects.
    const chunks = await bundle(
      "import { List, DataTable, FilterButton, SelectColumnsButton, Pagination, DeleteWithConfirmButton, Confirm, BulkDeleteButton } from 'react-admin';\n" +
        "import { Tooltip, Select, Autocomplete } from '@mui/material';\n" +
        'console.log(List, DataTable, FilterButton, SelectColumnsButton, Pagination, DeleteWithConfirmButton, Confirm, BulkDeleteButton, Tooltip, Select, Autocomplete);\n',
    );
    const entryFile = [...chunks].find(([, c]) => c.isEntry)![0];
    const page = [...withStaticImports(chunks, entryFile)].flatMap((file) => chunks.get(file)!.ids);
    for (const file of [
      'Popper/Popper.js',
      'Modal/Modal.js',
      'Popover/Popover.js',
      'Menu/Menu.js',
      'Dialog/Dialog.js',
    ])
      expect(page).toContain(`node_modules/@mui/material/esm/${file}`);
    // Every module of the page is a package's own file, the build's entry or jsonexport's on-demand
    // wrapper (react-admin's list controller imports the default exporter): no other stand-in of ours.
    const ours = page.filter((id) => !id.startsWith('node_modules/') && !id.startsWith('\0'));
    expect(ours.filter((id) => !/entry-\w+\.js$/.test(id))).toEqual(['src/lib/jsonexportOnDemand.ts']);
  }, 120_000);

  it('resolves everything else exactly as Vite does without it', async () => {
    const resolveAll = async (plugins: Plugin[]) => {
      const server = await createServer({
        configFile: false,
        root: dir,
        logLevel: 'silent',
        plugins,
        server: { middlewareMode: true, ws: false },
        optimizeDeps: { noDiscovery: true, include: [] },
      });
      try {
        const importer = path.join(dir, 'main.js');
        const sources = [
          '@mui/material/Menu',
          '@mui/material/styles',
          'react-admin',
          'ra-core',
          'jsonexport',
        ];
        return await Promise.all(
          sources.map(async (source) => [
            source,
            (await server.pluginContainer.resolveId(source, importer))?.id,
          ]),
        );
      } finally {
        await server.close();
      }
    };
    const withPlugin = await resolveAll([leanDependencies()]);
    expect(withPlugin.every(([, id]) => id?.includes('/node_modules/'))).toBe(true);
    expect(withPlugin).toEqual(await resolveAll([]));
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
