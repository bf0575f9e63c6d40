import path from 'node:path';
import { pathToFileURL } from 'node:url';
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import * as prettier from 'prettier';
import type { Resource } from '../../resources/define.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import { makeMigration } from '../engine/schema/make-migration.ts';
import { scaffoldResource, type ToTranslate } from '../engine/schema/scaffold.ts';

/**
 * `npm run make:resource <name> [-- --group content]`: writes resources/<name>.ts (a `name` field plus a
 * commented example of every field kind), its labels in locales/{en,zh-CN}/resources.json (and the menu
 * group's title in app.json when the group is new), its line in resources/index.ts and its first migration
 * (make:migration's code), then prints the zh-CN placeholders it wrote (to translate) and the next steps.
 */
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { group: { type: 'string', default: 'content' } },
});
const name = positionals[0];
if (!name) {
  process.stderr.write('Usage: npm run make:resource <name> [-- --group <menu group>]\n');
  process.exit(2);
}
const root = process.cwd();
let written: string[];
let toTranslate: ToTranslate[];
try {
  ({ written, toTranslate } = scaffoldResource(root, { name, group: values.group }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
// The project's code style (prettier): the registry line may need wrapping.
for (const file of written) {
  const options = (await prettier.resolveConfig(file)) ?? {};
  fs.writeFileSync(
    file,
    await prettier.format(fs.readFileSync(file, 'utf8'), { ...options, filepath: file }),
  );
}
const mod = (await import(pathToFileURL(path.join(root, 'resources', 'index.ts')).href)) as {
  resources: Resource[];
};
const resource = mod.resources.find((r) => r.name === name)!;
const migration = makeMigration({ resource, registry: mod.resources, dir: MIGRATIONS_DIR, firstVersion: 3 });
const rel = (p: string) => path.relative(root, p);
process.stdout.write(
  [
    `Created the resource "${name}":`,
    ...[...written, migration.file ?? '', migration.snapshot].filter(Boolean).map((f) => `  ${rel(f)}`),
    '',
    // The command cannot write Chinese for an English word: it writes a marked placeholder and says so.
    ...(toTranslate.length
      ? [
          'To translate (zh-CN placeholders written):',
          ...toTranslate.map((t) => `  ${rel(t.file)}  ${t.key}: "${t.text}"`),
          '',
        ]
      : []),
    'Next steps:',
    `  1. Add fields to resources/${name}.ts (the comments show every kind) and their labels to`,
    `     locales/en/resources.json and locales/zh-CN/resources.json (resources.${name}.fields.<field>).`,
    `  2. npm run make:migration ${name}    # after each schema change; review the SQL`,
    '  3. npm run dev                       # the page is in the settings menu; the server migrates at start',
    `  4. Grant "${resource.permission}" (and .create/.update/...) to a role in Settings > Roles.`,
    '  See docs/adding-a-resource.md.',
    '',
  ].join('\n'),
);
