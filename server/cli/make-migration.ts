import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { Resource } from '../../resources/define.ts';
import { MIGRATIONS_DIR } from '../db/migrate.ts';
import { makeMigration } from '../engine/make-migration.ts';

/**
 * `npm run make:migration <resource> [-- --baseline] [--dir <migrations dir>] [--registry <module>]`
 * Writes the next SQL migration for a registered resource (CREATE TABLE, or ALTER for a changed schema)
 * and its snapshot. `--baseline` only records the snapshot (for tables an earlier migration created).
 * `--registry` names a module exporting `resources` (default resources/index.ts), e.g. the test fixtures.
 */
const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    baseline: { type: 'boolean', default: false },
    dir: { type: 'string' },
    registry: { type: 'string' },
  },
});
const name = positionals[0];
if (!name) {
  process.stderr.write(
    'Usage: npm run make:migration <resource> [-- --baseline --dir <dir> --registry <module>]\n',
  );
  process.exit(2);
}
const registryFile = path.resolve(values.registry ?? 'resources/index.ts');
const mod = (await import(pathToFileURL(registryFile).href)) as Record<string, unknown>;
const registry = (mod.resources ?? mod.fixtureResources) as Resource[] | undefined;
const resource = registry?.find((r) => r.name === name);
if (!registry || !resource) {
  process.stderr.write(`No resource "${name}" is registered in ${path.relative('.', registryFile)}.\n`);
  process.exit(1);
}
const dir = path.resolve(values.dir ?? MIGRATIONS_DIR);
// 0002 is reserved for the auth migration in the main directory.
const firstVersion = dir === MIGRATIONS_DIR ? 3 : 1;
const result = makeMigration({ resource, registry, dir, baseline: values.baseline, firstVersion });
const rel = (p: string) => path.relative('.', p);
const messages = {
  created: `Created ${rel(result.file ?? '')} and ${rel(result.snapshot)}. Review the SQL, then run npm run db:migrate.`,
  altered: `Wrote ${rel(result.file ?? '')} (changes) and updated ${rel(result.snapshot)}. Review the SQL.`,
  unchanged: `No changes for "${name}".`,
  baseline: `Recorded ${rel(result.snapshot)} as the baseline of "${name}" (no SQL written).`,
};
process.stdout.write(`${messages[result.status]}\n`);
