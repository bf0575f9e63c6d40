import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Rollup } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { leanDependencies } from '../../scripts/lib/vite-lean-deps.ts';
import jsonExport from '../../src/lib/jsonexportOnDemand.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lean-deps-'));
// The repository's packages, as the product builds with them.
fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Builds `source` as an entry with the plugin; returns each chunk's module ids (relative to the repo). */
async function bundle(source: string): Promise<Map<string, { ids: string[]; isEntry: boolean }>> {
  const entry = path.join(dir, `entry-${Math.random().toString(36).slice(2)}.js`);
  fs.writeFileSync(entry, source);
  const output = (await build({
    configFile: false,
    root: dir,
    logLevel: 'silent',
    plugins: [leanDependencies()],
    build: { write: false, rollupOptions: { input: entry }, minify: false },
  })) as Rollup.RollupOutput;
  const chunks = new Map<string, { ids: string[]; isEntry: boolean }>();
  for (const chunk of output.output) {
    if (chunk.type !== 'chunk') continue;
    const ids = Object.keys(chunk.modules).map((id) => path.relative(repoRoot, id));
    chunks.set(chunk.fileName, { ids, isEntry: chunk.isEntry });
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
