import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The module react-admin's default CSV exporter is given instead of jsonexport itself. */
const JSONEXPORT_ON_DEMAND = fileURLToPath(new URL('../../src/lib/jsonexportOnDemand.ts', import.meta.url));

/** The folder of the stand-ins for MUI components that render nothing until opened. */
const MUI_ON_DEMAND_DIR = fileURLToPath(new URL('../../src/lib/muiOnDemand/', import.meta.url));
/** `@mui/material`'s ES modules (`node_modules/@mui/material/esm/`), which its package exports keep private. */
const MUI_ESM_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@mui/material/package.json')),
  'esm',
  path.sep,
);

/**
 * The MUI components (their folders in `@mui/material/esm`) the browser build gives on demand: each renders
 * nothing until a user opens it, and the first list page renders many of them closed.
 * - Popper (with @popperjs/core): every Tooltip's popup, shown on hover or focus; Autocomplete's list.
 * - Modal, and the components built on it, Popover (react-admin's column chooser), Menu (selects such as
 *   rows per page, "Add filter", the account and language menus) and Dialog (confirmations): opened by a
 *   click or a key. Menu is on demand for Popover's sake: its module builds its paper on Popover's, so a
 *   Menu in the page would keep Popover's module there.
 * Left as they are, though they also wait for something: Snackbar (react-admin's notifications: they report
 * errors, a failed request included, and must show even when a download cannot happen, offline), Drawer
 * (the phone drawer is on demand already, src/layouts/SettingsLayout.tsx), Fab (react-admin's create button
 * on a phone: shown at once there), TextareaAutosize (renders a textarea at once in any multiline input: a
 * form would show it late) and Tooltip itself (it renders its child at once; its Popper is on demand).
 */
export const MUI_ON_DEMAND = ['Popper', 'Modal', 'Popover', 'Menu', 'Dialog'] as const;
/**
 * An import that may name one of them: the package path, the barrel's `./X/index.js`, MUI's `../X/index.js`
 * and `../X/X.js` (MUI's Select imports `../Menu/Menu.js`).
 */
const MUI_ON_DEMAND_SOURCE = new RegExp(
  `(?:^@mui/material/|/)(${MUI_ON_DEMAND.join('|')})(?:/(?:index|\\1)(?:\\.js)?)?$`,
);
/** The folder of the stand-ins for single modules of react-admin and MUI (see `STAND_INS`). */
const STAND_INS_DIR = fileURLToPath(new URL('../../src/lib/standIns/', import.meta.url));
/** react-admin's MUI components (`node_modules/ra-ui-materialui/dist/`), whose files its exports keep private. */
const RA_UI_DIST_DIR = path.join(
  path.dirname(createRequire(import.meta.url).resolve('ra-ui-materialui')),
  path.sep,
);

/**
 * Modules that a file of react-admin or MUI imports statically but no page of the product runs, and what
 * that file gets instead in the production build (a module of src/lib/standIns; other importers keep the
 * real one). Each stand-in has the exports the importer asks for (Rollup fails the build if one is missing).
 * - `DatagridEditor`, which `DatagridConfigurable` hands to react-admin's Inspector: the product opens no
 *   Inspector (its column chooser is a download of its own). On demand: the editor, its `FieldsSelector`, a
 *   `FieldToggle` per column and MUI's `Switch` download when an editor first renders.
 * - MUI's `CssVarsProvider`, which `ThemeProvider` renders only for themes with color schemes: on demand.
 * - MUI's `createThemeWithVars`, which `createTheme` calls only with `cssVariables: true`: an error saying
 *   so (a theme is made while a page renders and cannot wait for a download). The product's themes use
 *   neither (src/lib/standIns/standIns.test.tsx; the build: tests/integration/vite-lean-deps.test.ts).
 * Together about 9 kB gzip off every page (`npm run bench:bundle`).
 */
export const STAND_INS: readonly { importer: string; source: string; standIn: string }[] = [
  {
    importer: path.join(RA_UI_DIST_DIR, 'list', 'datagrid', 'DatagridConfigurable.js'),
    source: './DatagridEditor.js',
    standIn: path.join(STAND_INS_DIR, 'DatagridEditor.tsx'),
  },
  {
    importer: path.join(MUI_ESM_DIR, 'styles', 'ThemeProvider.js'),
    source: './ThemeProviderWithVars.js',
    standIn: path.join(STAND_INS_DIR, 'ThemeProviderWithVars.tsx'),
  },
  {
    importer: path.join(MUI_ESM_DIR, 'styles', 'createTheme.js'),
    source: './createThemeWithVars.js',
    standIn: path.join(STAND_INS_DIR, 'createThemeWithVars.ts'),
  },
];

/** The real components' own files: what they import comes with them (Menu's Popover, Popover's Modal). */
const MUI_ON_DEMAND_REAL = MUI_ON_DEMAND.map((name) => path.join(MUI_ESM_DIR, name, path.sep));

/**
 * Four swaps in how the browser build resolves react-admin's dependencies, so every admin screen stops
 * carrying code it does not run (issue 14 item 7, `npm run bench:bundle`):
 *
 * - `lodash/<name>.js` (CommonJS, one wrapped module per internal helper; ra-core and ra-ui-materialui
 *   import about fifteen functions this way) resolves to `lodash-es/<name>.js`: the same functions from the
 *   same project as ES modules, which Rollup bundles without the CommonJS wrappers and tree-shakes.
 * - `jsonexport/dist/index.js`, which ra-core's `defaultExporter` imports statically into every list
 *   controller, resolves to src/lib/jsonexportOnDemand.ts: the same function, loading jsonexport on the
 *   first call. The product's lists export through the server (src/engine/csv/ExportButton.tsx), so the
 *   library only loads if a screen ever uses react-admin's own `<ExportButton>`.
 * - In a production build only, `@mui/material/esm/<Name>/index.js` (or `<Name>/<Name>.js`) for the
 *   components in `MUI_ON_DEMAND` (however it is imported: react-admin through the `@mui/material` barrel,
 *   MUI's own components through `../<Name>/index.js`, ours through `@mui/material/<Name>`) resolves to
 *   src/lib/muiOnDemand/<Name>.ts: the index's exports (an importer asking for anything else fails the build
 *   loudly), with a component that renders nothing while the real one would render nothing and
 *   downloads the real one when first opened (src/lib/muiOnDemand/onDemand.tsx). The stand-ins (their
 *   download, `import('@mui/material/<Name>')`) and the real components themselves get the real modules,
 *   so what a real component imports downloads with it (Menu's Popover, Popover's Modal), in one go.
 *   The stand-ins re-export the index's other exports (class names, ModalManager, Popover's paper) from
 *   `@mui/material/esm/<file>`, which the plugin resolves for them to a second instance of that module,
 *   side-effect free: Rollup puts a module a chunk imports statically into that chunk, used or not, so
 *   importing the real files would pull e.g. Popover.js (and Modal) back into the page; the second instance
 *   is left out unless something uses one of its exports.
 *   Not in `vite dev`: there the dependencies come pre-bundled, and importing MUI's files beside that bundle
 *   would run a second copy of MUI.
 *
 * - In a production build only, the modules in `STAND_INS` resolve, for their one importer, to their stand-ins.
 *
 * It also resolves `@mui/material/esm/<path>` and `ra-ui-materialui/dist/<path>`, which the packages' exports
 * hide, to the files.
 */
export function leanDependencies(): Plugin {
  let build = false;
  return {
    name: 'lean-dependencies',
    enforce: 'pre',
    configResolved(config) {
      build = config.command === 'build';
    },
    async resolveId(source, importer, options) {
      const lodash = /^lodash\/([A-Za-z]+)(?:\.js)?$/.exec(source);
      if (lodash) return this.resolve(`lodash-es/${lodash[1]}.js`, importer, { ...options, skipSelf: true });
      if (source === 'jsonexport/dist/index.js' && importer !== JSONEXPORT_ON_DEMAND)
        return JSONEXPORT_ON_DEMAND;
      if (build && importer) {
        const standIn = STAND_INS.find((entry) => entry.importer === importer && entry.source === source);
        if (standIn) return standIn.standIn;
      }
      if (source.startsWith('ra-ui-materialui/dist/'))
        return this.resolve(path.join(RA_UI_DIST_DIR, source.slice(22)), importer, {
          ...options,
          skipSelf: true,
        });
      if (source.startsWith('@mui/material/esm/')) {
        const file = await this.resolve(path.join(MUI_ESM_DIR, source.slice(18)), importer, {
          ...options,
          skipSelf: true,
        });
        // A stand-in's own instance of the module (see above), left out of the build unless used.
        if (file && build && importer?.startsWith(MUI_ON_DEMAND_DIR))
          return { id: `${file.id}${EXPORTS_ONLY}`, moduleSideEffects: false };
        return file;
      }
      const mui = MUI_ON_DEMAND_SOURCE.exec(source);
      if (build && mui && importer && !getsReal(importer)) {
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        const name = mui[1]!;
        const real = [path.join(MUI_ESM_DIR, name, 'index.js'), path.join(MUI_ESM_DIR, name, `${name}.js`)];
        if (resolved && real.includes(resolved.id)) return path.join(MUI_ON_DEMAND_DIR, `${name}.ts`);
        return resolved;
      }
      return null;
    },
  };
}

/** Marks a stand-in's instance of one of MUI's modules (see `leanDependencies`). */
const EXPORTS_ONLY = '?mui-on-demand-exports';

/** Whether `importer` is a stand-in or a real on-demand component: these import the real components. */
function getsReal(importer: string): boolean {
  if (importer.startsWith(MUI_ON_DEMAND_DIR)) return true;
  return !importer.endsWith(EXPORTS_ONLY) && MUI_ON_DEMAND_REAL.some((dir) => importer.startsWith(dir));
}

/** For configurations without the plugin (the unit tests): where `@mui/material/esm/<path>` is. */
export const muiEsmAlias = { find: /^@mui\/material\/esm\//, replacement: MUI_ESM_DIR };
/** For configurations without the plugin (the unit tests): where `ra-ui-materialui/dist/<path>` is. */
export const raUiDistAlias = { find: /^ra-ui-materialui\/dist\//, replacement: RA_UI_DIST_DIR };
