import path from 'node:path';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers (README "Layout"): each may import only from itself and the layers below it, never upward.
 *   schemas, locales  <-  resources  <-  { src, server }
 *   server: core (core/, db/, credentials/, jobs/, events/, storage/, config...)  <-  engine/  <-  modules/  <-  app
 *   src: base (providers, lib, navigation, events, i18n, theme, components, public-ui)  <-  engine/  <-  layouts/
 *        <-  app (the router beside App.tsx, pages, admin)
 * Tests and test helpers may reach across (a test of schemas/ checks the resources, say).
 */
const LAYERS = [
  { type: 'schemas', pattern: ['schemas/**', 'locales/**'] },
  { type: 'resources', pattern: 'resources/**' },
  {
    type: 'server-core',
    pattern: [
      'server/core/**',
      'server/db/**',
      'server/credentials/**',
      'server/jobs/**',
      'server/events/**',
      'server/storage/**',
      'server/cluster/**',
      'server/mail/**',
      'server/sms/**',
      'server/config.ts',
    ],
  },
  { type: 'server-engine', pattern: 'server/engine/**' },
  { type: 'server-modules', pattern: 'server/modules/**' },
  {
    type: 'server-app',
    pattern: ['server/app.ts', 'server/main.ts', 'server/bootstrap.ts', 'server/cli/**'],
  },
  {
    type: 'src-base',
    pattern: [
      'src/providers/**',
      'src/lib/**',
      'src/navigation/**',
      'src/events/**',
      'src/i18n/**',
      'src/theme/**',
      'src/components/**',
      'src/public-ui/**',
    ],
  },
  { type: 'src-engine', pattern: 'src/engine/**' },
  // The frames pages render in: they know no page (a page's shared piece moves down to base).
  // The command palette (src/palette) is part of the frame: every layout's app bar opens it.
  { type: 'src-layouts', pattern: ['src/layouts/**', 'src/palette/**'] },
  // The router (src/AppRoutes.tsx), pages, the admin app (and its override table): the screens, on top.
  { type: 'src-app', pattern: 'src/**' },
];
const MAY_IMPORT = {
  schemas: ['schemas'],
  resources: ['schemas', 'resources'],
  'server-core': ['schemas', 'resources', 'server-core'],
  'server-engine': ['schemas', 'resources', 'server-core', 'server-engine'],
  'server-modules': ['schemas', 'resources', 'server-core', 'server-engine', 'server-modules'],
  'server-app': ['schemas', 'resources', 'server-core', 'server-engine', 'server-modules', 'server-app'],
  'src-base': ['schemas', 'resources', 'src-base'],
  'src-engine': ['schemas', 'resources', 'src-base', 'src-engine'],
  'src-layouts': ['schemas', 'resources', 'src-base', 'src-engine', 'src-layouts'],
  'src-app': ['schemas', 'resources', 'src-base', 'src-engine', 'src-layouts', 'src-app'],
};

/**
 * The wall between feature modules: a module (a folder of server/modules/) is used by the others only through
 * its public face, its index.ts (exports say what it offers: auth's sessions and account lookups for wechat,
 * tasks' scheduler and routes for jobs). What several modules share and belongs to none of them goes to
 * server/core. A single-file module (server/modules/settings.ts) is its own face. Relative imports, `export
 * ... from` and `import()` are resolved against the importing file, so no path spelling gets round it.
 */
const MODULES_DIR = path.join(import.meta.dirname, 'server', 'modules');
const moduleWalls = {
  meta: { type: 'problem', messages: { internal: '{{ target }}: another module imports only {{ face }}' } },
  create(context) {
    const own = moduleOf(context.filename);
    if (own === undefined) return {};
    const check = (node) => {
      const source = node?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), source);
      const other = moduleOf(target);
      if (!other || other === own) return;
      if (path.relative(path.join(MODULES_DIR, other), target) === 'index.ts') return;
      const face = `server/modules/${other}/index.ts`;
      context.report({ node, messageId: 'internal', data: { target: source, face } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};
/** The module folder `file` is in, '' for a file directly in server/modules/, undefined outside it. */
function moduleOf(file) {
  const relative = path.relative(MODULES_DIR, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  return parts.length > 1 ? parts[0] : '';
}

export default tseslint.config(
  { ignores: ['dist', 'dist-e2e', 'dist-server*', 'data', 'coverage', 'node_modules'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'separate-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware: a promise nobody awaits or handles loses its error (an unhandled rejection ends the
    // server); a promise where a void callback is expected (an async listener) does the same.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // React and Fastify take async handlers for JSX attributes and hooks on purpose.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // A library's private files (what its package exports hide) move or vanish in a minor release, and a
    // build that reaches for them fails silently or only in production (issue 29 item 2). Import a
    // package's published entry points; load code on demand with React.lazy or import() of those.
    // zod's `z` is imported as a namespace: through the named `z` export, esbuild keeps zod's whole object,
    // every locale included (550 kB more in the server bundle every start loads; issue 37 item 3).
    files: ['**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message:
            "Write `import * as z from 'zod'`: the named `z` brings all of zod into the server's bundle.",
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@mui/[^/]+/(esm|node|modern|legacy)|ra-[^/]+/(dist|src)|react-admin/(dist|src))/',
              message: "A library's private file: import its package's published entry point instead.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: { ...reactHooks.configs.recommended.rules, ...jsxA11y.flatConfigs.recommended.rules },
  },
  {
    files: ['schemas/**', 'locales/**', 'resources/**', 'server/**', 'src/**'],
    ignores: ['**/*.test.{ts,tsx}', '**/testing/**'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': LAYERS.map((layer) => ({ ...layer, mode: 'full' })),
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.json'] } },
      // Layers are globs over whole paths (`mode: 'full'`), some single files (server/config.ts); v7 calls
      // `mode` legacy but has no other way to classify a file as an element.
      'boundaries/legacy-warnings': false,
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message:
            '{{ from.element.type }} must not import {{ to.element.type }} (a layer above it; see eslint.config.js)',
          policies: Object.entries(MAY_IMPORT).map(([from, allow]) => ({
            from: { element: { type: from } },
            allow: { to: { element: { types: { anyOf: allow } } } },
          })),
        },
      ],
    },
  },
  {
    files: ['server/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { modules: { rules: { walls: moduleWalls } } },
    rules: { 'modules/walls': 'error' },
  },
);
