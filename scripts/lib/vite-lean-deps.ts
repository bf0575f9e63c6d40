import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The module react-admin's default CSV exporter is given instead of jsonexport itself. */
const JSONEXPORT_ON_DEMAND = fileURLToPath(new URL('../../src/lib/jsonexportOnDemand.ts', import.meta.url));

/**
 * Two whole-package swaps in how the build resolves react-admin's dependencies, so every admin screen stops
 * carrying code it does not run (issue 14 item 7, `npm run bench:bundle`). Both name a package's published
 * files only, never a library's private ones, and tests/integration/vite-lean-deps.test.ts fails if either
 * stops applying (a react-admin upgrade that imports them another way):
 *
 * - `lodash/<name>.js` (CommonJS, one wrapped module per internal helper; ra-core and ra-ui-materialui
 *   import about fifteen functions this way) resolves to `lodash-es/<name>.js`: the same functions from the
 *   same project, published as ES modules, which Rollup bundles without the CommonJS wrappers and
 *   tree-shakes.
 * - `jsonexport/dist/index.js` (the package's browser build), which ra-core's `defaultExporter` imports
 *   statically into every list controller, resolves to src/lib/jsonexportOnDemand.ts: the same function,
 *   loading that very file with a dynamic `import()` on the first call. The product's lists export through
 *   the server (src/engine/csv/ExportButton.tsx), so the library only loads if a screen ever uses
 *   react-admin's own `<ExportButton>`.
 *
 * Components that render nothing until opened (MUI's Popper, Modal, Menu, Dialog...) are not swapped: they
 * come with the page, as their libraries ship them (issue 29 item 2). Our own code loads its screens and
 * dialogs on demand with `React.lazy`.
 */
export function leanDependencies(): Plugin {
  return {
    name: 'lean-dependencies',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      const lodash = /^lodash\/([A-Za-z]+)(?:\.js)?$/.exec(source);
      if (lodash) return this.resolve(`lodash-es/${lodash[1]}.js`, importer, { ...options, skipSelf: true });
      if (source === 'jsonexport/dist/index.js' && importer !== JSONEXPORT_ON_DEMAND)
        return JSONEXPORT_ON_DEMAND;
      return null;
    },
  };
}
