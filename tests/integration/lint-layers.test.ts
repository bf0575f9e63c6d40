import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The import walls of eslint.config.js (schemas <- resources <- {src, server}; server core <- engine <-
 * modules <- app; the client engine never imports screens) fail `npm run lint`. Each case lints a small
 * file as if it were placed at `file` with the project's real config and expects the boundaries error (or,
 * for an import that goes the right way, none), so a config that stops classifying the layers fails here.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');

const cases: { file: string; imports: string; wrong: boolean }[] = [
  { file: 'schemas/wrong-way.ts', imports: '../resources/define.ts', wrong: true },
  { file: 'resources/wrong-way.ts', imports: '../server/core/errors.ts', wrong: true },
  { file: 'resources/wrong-way.ts', imports: '../src/engine/data/registry.ts', wrong: true },
  { file: 'server/core/wrong-way.ts', imports: '../engine/operations.ts', wrong: true },
  { file: 'server/config.ts', imports: './app.ts', wrong: true },
  { file: 'server/jobs/wrong-way.ts', imports: '../modules/jobs/routes.ts', wrong: true },
  { file: 'server/engine/wrong-way.ts', imports: '../modules/people/index.ts', wrong: true },
  { file: 'server/modules/wrong-way.ts', imports: '../app.ts', wrong: true },
  { file: 'server/core/wrong-way.ts', imports: '../../src/engine/data/registry.ts', wrong: true },
  { file: 'src/engine/wrong-way.ts', imports: '../pages/people/StaffList.tsx', wrong: true },
  { file: 'src/engine/wrong-way.ts', imports: '../admin/overrides.ts', wrong: true },
  { file: 'src/engine/wrong-way.ts', imports: '../../server/engine/operations.ts', wrong: true },
  // The right way round: no error.
  { file: 'server/modules/right-way.ts', imports: '../engine/operations.ts', wrong: false },
  { file: 'server/engine/right-way.ts', imports: '../core/errors.ts', wrong: false },
  { file: 'src/pages/right-way.ts', imports: '../engine/data/registry.ts', wrong: false },
  { file: 'src/engine/right-way.ts', imports: '../providers/profile.ts', wrong: false },
  { file: 'src/providers/wrong-way.ts', imports: '../engine/data/registry.ts', wrong: true },
  { file: 'src/engine/list/wrong-way.ts', imports: '../../pages/people/StaffList.tsx', wrong: true },
  // Navigation and the public kit are base: they import no screen; layouts import no page.
  { file: 'src/navigation/wrong-way.ts', imports: '../AppRoutes.tsx', wrong: true },
  { file: 'src/navigation/wrong-way.ts', imports: '../engine/data/registry.ts', wrong: true },
  { file: 'src/public-ui/wrong-way.ts', imports: '../layouts/PublicLayout.tsx', wrong: true },
  { file: 'src/layouts/wrong-way.ts', imports: '../pages/people/StaffList.tsx', wrong: true },
  { file: 'src/engine/right-way.ts', imports: '../navigation/navigation.tsx', wrong: false },
  { file: 'src/pages/right-way.ts', imports: '../layouts/PageHeader.tsx', wrong: false },
  { file: 'resources/right-way.ts', imports: '../schemas/ids.ts', wrong: false },
];

describe('import walls (eslint-plugin-boundaries in eslint.config.js)', () => {
  let eslint: ESLint;
  beforeAll(() => {
    // The cases are files that do not exist, which the type-aware rules' project service cannot load:
    // they are linted without type information (the walls need none).
    eslint = new ESLint({
      cwd: ROOT,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: {
          '@typescript-eslint/no-floating-promises': 'off',
          '@typescript-eslint/no-misused-promises': 'off',
        },
      },
    });
  });

  it.each(cases)('$file importing $imports: wrong way = $wrong', async ({ file, imports, wrong }) => {
    const code = `import * as dependency from '${imports}';\n\nexport const used = dependency;\n`;
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    const walls = result!.messages.filter((m) => m.ruleId === 'boundaries/dependencies');
    if (wrong) expect(walls.map((m) => m.message)).toEqual([expect.stringMatching(/must not import/)]);
    else expect(walls).toEqual([]);
  });
});

/**
 * The wall between feature modules (`modules/walls` in eslint.config.js): a module folder of server/modules/
 * reaches another only through its index.ts, however the path is spelled.
 */
const moduleCases: { file: string; imports: string; wrong: boolean }[] = [
  { file: 'server/modules/wechat/wrong-way.ts', imports: '../auth/users.ts', wrong: true },
  { file: 'server/modules/jobs/wrong-way.ts', imports: '../tasks/scheduler.ts', wrong: true },
  { file: 'server/modules/tasks/wrong-way.ts', imports: '../../modules/wechat/store.ts', wrong: true },
  { file: 'server/modules/wrong-way.ts', imports: './tasks/handlers.ts', wrong: true },
  // The right way: another module's index.ts, the module's own files, a single-file module, the layers below.
  { file: 'server/modules/wechat/right-way.ts', imports: '../auth/index.ts', wrong: false },
  { file: 'server/modules/wechat/right-way.ts', imports: './store.ts', wrong: false },
  { file: 'server/modules/activities/right-way.ts', imports: '../settings.ts', wrong: false },
  { file: 'server/modules/right-way.ts', imports: './tasks/index.ts', wrong: false },
  { file: 'server/modules/tasks/right-way.ts', imports: '../../core/errors.ts', wrong: false },
];

describe('module walls (modules/walls in eslint.config.js)', () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({
      cwd: ROOT,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: {
          '@typescript-eslint/no-floating-promises': 'off',
          '@typescript-eslint/no-misused-promises': 'off',
        },
      },
    });
  });

  it.each(moduleCases)('$file importing $imports: wrong way = $wrong', async ({ file, imports, wrong }) => {
    const code = [
      `import * as dependency from '${imports}';`,
      `export * from '${imports}';`,
      `export const later = () => import('${imports}');`,
      'export const used = dependency;',
      '',
    ].join('\n');
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    const walls = result!.messages.filter((m) => m.ruleId === 'modules/walls');
    // The import, the re-export and the dynamic import: each is a way through.
    if (wrong)
      expect(walls.map((m) => m.message)).toEqual(
        Array(3).fill(expect.stringMatching(/only server\/modules\/\w+\/index\.ts/)),
      );
    else expect(walls).toEqual([]);
  });
});

describe('type-aware rules (no-floating-promises, no-misused-promises)', () => {
  // Linted as the text of a file the project has, with the project's real config and its types.
  const lintAs = async (file: string, code: string) => {
    const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: path.join(ROOT, file) });
    return result!.messages.map((m) => m.ruleId);
  };

  it('a promise left floating, or passed where a void callback goes, fails lint', async () => {
    const code = [
      'async function save(): Promise<void> {}',
      'save();',
      "process.on('exit', async () => save());",
      'export const handled = () => void save();',
      '',
    ].join('\n');
    expect(await lintAs('server/config.ts', code)).toEqual([
      '@typescript-eslint/no-floating-promises',
      '@typescript-eslint/no-misused-promises',
    ]);
    // Builds the whole project's type program: 11-19 s alone, 80 s on a 2-core machine under load 17.
  }, 240_000);
});

describe('no private files of libraries (no-restricted-imports, issue 29 item 2)', () => {
  it.each([
    ['src/lib/wrong-way.ts', '@mui/material/esm/Popover/Popover.js', true],
    ['scripts/lib/wrong-way.ts', 'ra-ui-materialui/dist/list/datagrid/DatagridEditor.js', true],
    ['src/lib/right-way.ts', '@mui/material/Popover', false],
    ['src/lib/right-way.ts', 'react-admin', false],
  ])('%s importing %s: private = %s', async (file, imports, isPrivate) => {
    // Linted without type information, as the walls above (the file does not exist).
    const eslint = new ESLint({
      cwd: ROOT,
      overrideConfig: {
        languageOptions: { parserOptions: { projectService: false } },
        rules: {
          '@typescript-eslint/no-floating-promises': 'off',
          '@typescript-eslint/no-misused-promises': 'off',
        },
      },
    });
    const code = `import * as dependency from '${imports}';\n\nexport const used = dependency;\n`;
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    const hits = result!.messages.filter((m) => m.ruleId === 'no-restricted-imports');
    expect(hits.length).toBe(isPrivate ? 1 : 0);
  });
});
