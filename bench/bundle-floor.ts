/**
 * `npx tsx bench/bundle-floor.ts`: the floor under the first list page's budget (issue 14 item 7). Builds,
 * in a temp directory, the smallest app the developers' guide allows for a list page: react-admin's
 * `<Admin>` with one `<Resource>` whose list is `<List>` + `<Datagrid>` + `<TextField>`, translated through
 * ra-i18n-i18next (react-admin's English messages), over a stub data provider; with the repository's
 * packages (a node_modules link) and the same Vite build settings as vite.config.ts. Prints the gzip size
 * (zlib level 9, as bench/bundle.ts measures) of the JS that page loads: the entry, its modulepreloads and
 * their static imports. Everything of the product's first list page above that figure is ours to cut.
 * `--datatable` uses react-admin's newer `<DataTable>` instead of `<Datagrid>`; `--lean` composes
 * `AdminContext` + `CoreAdminUI` with no layout, as src/admin/LeanAdmin.tsx does, instead of `<Admin>` (which
 * keeps react-admin's default i18nProvider, layout and login page in the bundle).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { viteProductionBuild, repoRoot } from '../scripts/lib/frontend.ts';
import { gzipSize, staticClosure } from './lib/chunks.ts';

const KB = 1000;
const TARGET = 330 * KB;
const dataTable = process.argv.includes('--datatable');
const lean = process.argv.includes('--lean');

const table = dataTable
  ? `<DataTable><DataTable.Col source="id" /><DataTable.Col source="name" field={TextField} /></DataTable>`
  : `<Datagrid><TextField source="id" /><TextField source="name" /></Datagrid>`;

const main = `
import { createRoot } from 'react-dom/client';
import { createInstance } from 'i18next';
import { getI18nProvider, convertRaTranslationsToI18next } from 'ra-i18n-i18next';
import englishMessages from 'ra-language-english';
import { Admin, AdminContext, CoreAdminUI, Notification, Resource, List, ${dataTable ? 'DataTable' : 'Datagrid'}, TextField } from 'react-admin';

const rows = [{ id: 1, name: 'One' }, { id: 2, name: 'Two' }];
const dataProvider = {
  getList: async () => ({ data: rows, total: rows.length }),
  getOne: async (_r, { id }) => ({ data: rows.find((row) => row.id === id) }),
  getMany: async () => ({ data: rows }),
  getManyReference: async () => ({ data: rows, total: rows.length }),
  create: async (_r, { data }) => ({ data: { ...data, id: 3 } }),
  update: async (_r, { data }) => ({ data }),
  updateMany: async (_r, { ids }) => ({ data: ids }),
  delete: async (_r, { previousData }) => ({ data: previousData }),
  deleteMany: async (_r, { ids }) => ({ data: ids }),
};

const ItemList = () => <List>${table}</List>;

getI18nProvider(createInstance(), {
  lng: 'en',
  resources: { en: { translation: convertRaTranslationsToI18next(englishMessages) } },
}).then((i18nProvider) => {
  createRoot(document.getElementById('root')).render(
    ${
      lean
        ? `<AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider}>
      <CoreAdminUI layout={({ children }) => <>{children}</>} disableTelemetry>
        <Resource name="items" list={ItemList} />
      </CoreAdminUI>
      <Notification />
    </AdminContext>`
        : `<Admin dataProvider={dataProvider} i18nProvider={i18nProvider}>
      <Resource name="items" list={ItemList} />
    </Admin>`
    },
  );
});
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-floor-'));
try {
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/main.jsx"></script></body></html>\n',
  );
  fs.writeFileSync(path.join(dir, 'main.jsx'), main);
  // The repository's packages, at the versions the product builds with.
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const outDir = path.join(dir, 'dist');
  process.stdout.write(`[bundle-floor] building the minimal list app in ${dir} ...\n`);
  await viteProductionBuild({
    root: dir,
    configFile: false,
    logLevel: 'error',
    plugins: [react()],
    // vite.config.ts's build settings (its manualChunks only groups our locale files).
    build: { outDir, emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 1500 },
  });
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const starts = [
    ...html.matchAll(/<script\b[^>]*type="module"[^>]*\bsrc="\/([^"]+)"/gi),
    ...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*\bhref="\/([^"]+)"/gi),
  ].map((m) => m[1]!);
  const files = [...staticClosure(outDir, starts)];
  const all = fs
    .readdirSync(path.join(outDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`);
  const bytes = gzipSize(outDir, files);
  const fmt = (n: number): string => `${(n / KB).toFixed(1)} kB`;
  process.stdout.write(
    `\nFloor: react-admin ${version('react-admin')}, @mui/material ${version('@mui/material')}, ` +
      `ra-i18n-i18next ${version('ra-i18n-i18next')}, react ${version('react')}; ` +
      `${lean ? 'AdminContext + CoreAdminUI' : '<Admin>'}, ${dataTable ? '<DataTable>' : '<Datagrid>'}\n` +
      `  minimal list page, JS (gzip level 9, ${files.length} files)  ${fmt(bytes).padStart(9)}   ` +
      `first list page target <= ${fmt(TARGET)}: ${bytes <= TARGET ? 'room ' + fmt(TARGET - bytes) : 'ABOVE the target'}\n` +
      `  all JS chunks of that build (${all.length} files)            ${fmt(gzipSize(outDir, all)).padStart(9)}\n`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

function version(name: string): string {
  const file = path.join(repoRoot, 'node_modules', name, 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}
