import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { descriptors } from 'virtual:resource-descriptors';
import { resources } from '../../../resources/index.ts';
import { describeResource } from './descriptor.ts';
import { registeredDescriptors } from './registry.ts';
import { contacts } from '../testing/contacts.ts';
import { gadgets } from '../../../tests/fixtures/gadgets.ts';

describe('resource descriptors', () => {
  it('the build-time descriptors (the Vite plugin) are describeResource of the registry at run time', () => {
    expect(descriptors.map((d) => d.name)).toEqual(resources.map((r) => r.name));
    expect(descriptors).toEqual(resources.map((resource) => describeResource(resource)));
    expect(registeredDescriptors).toBe(descriptors);
  });

  it('are plain data: JSON carries them unchanged, with no zod schema and no server-only option', () => {
    for (const resource of [...resources, contacts]) {
      const described = describeResource(resource);
      expect(JSON.parse(JSON.stringify(described))).toEqual(described);
      expect(JSON.stringify(described)).not.toContain('_zod');
      expect(Object.keys(described.options)).not.toContain('schema');
      for (const f of described.fields) expect(f.meta.dictionarySeed).toBeUndefined();
    }
  });

  it('carry row actions without their handler and input schema, with the input form fields', () => {
    const described = describeResource(gadgets);
    expect(JSON.parse(JSON.stringify(described))).toEqual(described);
    expect(described.options.actions).toEqual({
      ship: {
        icon: 'LocalShipping',
        confirm: true,
        hasInput: true,
        inputFields: [{ name: 'quantity', kind: 'int', required: true }],
      },
      retire: { icon: 'Archive', confirm: true, bulk: true },
    });
  });

  it("say what the screens read of each field: kind, required, enum values, flag, and the model's results", () => {
    const described = describeResource(contacts);
    const field = (name: string) => described.fields.find((f) => f.name === name)!;
    expect(field('name')).toMatchObject({ kind: 'string', required: true, flag: false });
    expect(field('phone')).toMatchObject({ kind: 'string', required: false });
    expect(field('gender')).toMatchObject({ kind: 'enum', enumValues: ['male', 'female', 'unknown'] });
    expect(field('is_vip')).toMatchObject({ kind: 'number', flag: true });
    // Metadata given before `.optional()` is found through the wrapper.
    expect(field('category')).toMatchObject({ kind: 'dictionary', meta: { dictionary: 'contact_category' } });
    expect(field('password').kind).toBe('password');
    expect(described.sortable).toEqual(['id', 'created_at', 'updated_at', 'name', 'age']);
    expect(described.defaultSort).toEqual({ field: 'id', order: 'desc' });
    expect(described.maxPageSize).toBe(1000);
    expect(described.searchable.find((f) => f.name === 'age')).toEqual({
      name: 'age',
      kind: 'int',
      conditions: ['>=', '<='],
    });
  });
});

/**
 * What the first list page loads (bench/bundle.ts: the admin shell and a list screen) must not import zod
 * or a resource declaration; forms load them in their own chunks. Follows the static imports of the source
 * (`import type` and dynamic `import()` excluded), which is what decides what Rollup puts in those chunks.
 */
describe('the first list page', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const ENTRIES = [
    'src/App.tsx',
    'src/admin/AdminApp.tsx',
    'src/engine/list/ResourceList.tsx',
    'src/pages/people/StaffList.tsx',
  ];

  it('statically imports neither zod nor resources/index.ts nor resources/define.ts', () => {
    const seen = new Map<string, string>();
    const stack: [string, string][] = ENTRIES.map((file) => [path.join(root, file), 'entry']);
    const offending: string[] = [];
    while (stack.length) {
      const [file, from] = stack.pop()!;
      if (seen.has(file)) continue;
      seen.set(file, from);
      for (const specifier of runtimeImports(fs.readFileSync(file, 'utf8'))) {
        if (specifier === 'zod' || specifier.startsWith('zod/')) offending.push(chain(file, seen, root));
        if (!specifier.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), specifier);
        if (/resources\/(index|define)\.ts$/.test(target))
          offending.push(`${path.relative(root, target)} <- ${chain(file, seen, root)}`);
        else if (/\.tsx?$/.test(target)) stack.push([target, file]);
      }
    }
    expect(seen.size).toBeGreaterThan(30);
    expect(offending).toEqual([]);
  });
});

/** The specifiers a module imports at run time: static imports and re-exports, not `import type`. */
function runtimeImports(source: string): string[] {
  const out: string[] = [];
  const pattern = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm;
  for (const match of source.matchAll(pattern)) if (!match[2]) out.push(match[3]!);
  return out;
}

function chain(file: string, seen: Map<string, string>, root: string): string {
  const out = [path.relative(root, file)];
  for (let at = seen.get(file); at && at !== 'entry'; at = seen.get(at)) out.push(path.relative(root, at));
  return out.join(' <- ');
}
