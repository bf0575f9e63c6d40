import { describe, expect, it } from 'vitest';
import { resources as fixtureRegistry } from '../../../tests/fixtures/registry.ts';
import { fieldsOf, maxPageSizeOf, searchableFields, sortableFields } from '../../../resources/fields.ts';
import { parseListQuery } from '../../../server/engine/list/query.ts';
import { escapeSearchValue } from '../../lib/query.ts';
import { listQuery } from './listQuery.ts';
import { describeResource } from './descriptor.ts';
import {
  defaultSortOf,
  engineFields,
  filterFields,
  relatedListFields,
  sortableFields as clientSortable,
} from './registry.ts';
import { inlineCollections } from '../form/schemaFields.ts';
import { zodResolver } from '../form/zodResolver.ts';

/**
 * One field model (issue 11): the client's screens and the server's query language read the same
 * description of every field, so what the list offers is exactly what the server accepts, for every
 * registered resource (the product's and the test fixture's).
 */
describe.each(fixtureRegistry.map((r) => [r.name, r] as const))('%s', (_name, resource) => {
  const described = describeResource(resource);
  it('the client sorts by exactly the fields the server accepts in orderBy', () => {
    // A reference's related sorts (`department.name`) need the caller's list context on the server (scope
    // and field access of the target: tests/integration/engine-related-sort.test.ts); here, that each is
    // one its reference declares in `sortBy`.
    const own = [...clientSortable(described)].filter((f) => !f.includes('.'));
    const related = [...clientSortable(described)].filter((f) => f.includes('.'));
    expect(own.sort()).toEqual([...sortableFields(resource)].sort());
    expect(related.sort()).toEqual(
      relatedListFields(described)
        .filter((f) => f.isSortable)
        .map((f) => f.path)
        .sort(),
    );
    for (const field of own) expect(() => parseListQuery(resource, { orderBy: field })).not.toThrow();
    if (!resource.timestamps) expect(() => parseListQuery(resource, { orderBy: 'updated_at' })).toThrow();
  });

  it('every client filter is searchable on the server with the condition the client sends', () => {
    const server = searchableFields(resource);
    for (const f of filterFields(described)) {
      expect(server.has(f.name), f.name).toBe(true);
      const { conditions, kind } = server.get(f.name)!;
      const query = listQuery(described, { filter: { [f.name]: sampleFor(conditions[0], kind) } });
      if (query.search) expect(() => parseListQuery(resource, query), f.name).not.toThrow();
    }
  });

  it('an array filter is `in` for a set and `between` for a range, from the field model, for every kind', () => {
    const seen: string[] = [];
    for (const f of described.searchable) {
      const declared = f.conditions;
      const isRange =
        declared[0] === 'between' ||
        (!declared.includes('in') && declared.some((c) => ['between', '>=', '<='].includes(c)));
      const values = twoValuesOf(f.kind);
      const query = listQuery(described, { filter: { [f.name]: values } });
      const expected = isRange ? 'between' : 'in';
      expect(query.searchFields, f.name).toBe(`${f.name}:${expected}`);
      expect(query.search, f.name).toBe(`${f.name}:${values.map(escapeSearchValue).join(',')}`);
      // What the server makes of it: accepted when the field declares it, else a 422 naming the field.
      if (declared.includes(expected)) expect(() => parseListQuery(resource, query), f.name).not.toThrow();
      else expect(() => parseListQuery(resource, query), f.name).toThrow();
      if (isRange) {
        const from = listQuery(described, { filter: { [f.name]: [values[0], undefined] } });
        if (declared.includes('>=')) expect(from.searchFields).toBe(`${f.name}:>=`);
      }
      seen.push(f.kind);
    }
    kindsSeen.push(...seen);
  });

  it('the default sort and the page-size cap are the same on both sides', () => {
    const client = defaultSortOf(described);
    expect(() =>
      parseListQuery(resource, { orderBy: client.field, sortedBy: client.order.toLowerCase() }),
    ).not.toThrow();
    const cap = maxPageSizeOf(resource);
    expect(() => parseListQuery(resource, { size: String(cap) })).not.toThrow();
    expect(() => parseListQuery(resource, { size: String(cap + 1) })).toThrow();
    for (const c of inlineCollections(resource, fixtureRegistry))
      expect(c.maxItems).toBe(maxPageSizeOf(c.child));
  });

  it("each field's screen kind is a mapping of the shared model's kind", () => {
    const model = new Map(fieldsOf(resource).map((f) => [f.name, f.kind]));
    for (const f of engineFields(described)) {
      const kind = model.get(f.name)!;
      // file() / image() are references to assets the form uploads; money() is an integer of minor units.
      if (kind === 'reference') expect(['belongsTo', 'file', 'image']).toContain(f.kind);
      else if (kind === 'references') expect(f.kind).toBe('manyToMany');
      else if (kind === 'int' || kind === 'number') expect(['number', 'password', 'money']).toContain(f.kind);
      else if (kind === 'boolean') expect(f.kind).toBe('boolean');
    }
  });
});

const kindsSeen: string[] = [];
describe('array filters', () => {
  it('were tried on every kind of searchable field the model has', () => {
    // The fixture registry (tests/fixtures/registry.ts) holds a searchable field of each of these kinds.
    for (const kind of ['string', 'enum', 'boolean', 'int', 'date', 'datetime', 'reference', 'references'])
      expect(new Set(kindsSeen), kind).toContain(kind);
  });
});

/** Two valid search values of a kind, in order (a range's ends, or a set). */
function twoValuesOf(kind: string): string[] {
  if (kind === 'date') return ['2026-01-01', '2026-02-01'];
  if (kind === 'datetime') return ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'];
  if (kind === 'boolean') return ['1', '0'];
  if (['int', 'number', 'reference', 'references'].includes(kind)) return ['1', '2'];
  return ['a', 'b'];
}

/** A valid search value of the field's kind, shaped as the client's filter for its default condition. */
function sampleFor(condition: string | undefined, kind: string): unknown {
  const one = kind === 'date' || kind === 'datetime' ? '2026-01-01' : '1';
  if (condition === 'between') return [one, one];
  if (condition === 'in') return [one];
  return one;
}

describe('forms check the column limits of the shared model', () => {
  it('an integer outside its column type range is refused on the client as on the server', async () => {
    const gadgets = fixtureRegistry.find((r) => r.name === 'gadgets')!;
    const resolver = zodResolver({ resource: gadgets, translate: (k) => k, isEdit: false });
    const values = { name: 'x', sku: 'y', price: 1, stock: 2147483648 };
    const result = await resolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(Object.keys(result.errors)).toEqual(['stock']);
    const ok = await resolver({ ...values, stock: 2147483647 }, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    expect(ok.errors).toEqual({});
  });
});
