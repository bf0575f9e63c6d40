import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { defineResource, dictionary, field, reference, references } from '../../../resources/define.ts';
import { fieldKind } from './fieldKind.ts';
import { metaDeep } from '../../../resources/define.ts';
import { formPayload } from '../form/formPayload.ts';
import { describeResource } from '../data/descriptor.ts';
import { listQuery } from '../data/listQuery.ts';
import { contacts } from '../testing/contacts.ts';

describe('fieldKind: zod type and metadata -> the lookup tables key', () => {
  const cases: [string, z.ZodType, object, string][] = [
    ['string', z.string().min(1), {}, 'string'],
    ['long string', z.string().max(5000), {}, 'text'],
    ['textarea hint', z.string(), { input: 'textarea' }, 'text'],
    ['z.email()', z.email(), {}, 'email'],
    ['string().email()', z.string().email(), {}, 'email'],
    ['z.url()', z.url().optional(), {}, 'url'],
    ['number', z.number().int().optional(), {}, 'number'],
    ['boolean with default', z.boolean().default(true), {}, 'boolean'],
    ['state union', z.union([z.boolean(), z.literal(1), z.literal(0)]).transform(Boolean), {}, 'boolean'],
    ['enum', z.enum(['a', 'b']), {}, 'enum'],
    ['iso date', z.iso.date(), {}, 'date'],
    ['iso datetime', z.iso.datetime(), {}, 'datetime'],
    ['record', z.record(z.string(), z.unknown()), {}, 'json'],
    ['write-only', z.string(), { writeOnly: true }, 'password'],
  ];
  it.each(cases)('%s', (_name, schema, meta, kind) => {
    expect(fieldKind(schema, meta)).toBe(kind);
  });

  it('reads relations and dictionaries from the helpers, also under .optional()', () => {
    expect(fieldKind(reference('users'), metaDeep(reference('users')))).toBe('belongsTo');
    expect(fieldKind(references('roles'), metaDeep(references('roles')))).toBe('manyToMany');
    const optionalDictionary = dictionary('gender').optional();
    expect(fieldKind(optionalDictionary, metaDeep(optionalDictionary))).toBe('dictionary');
  });
});

describe('listQuery', () => {
  it('an array is `in` (its values joined), takes an explicit `field@condition`, drops empty values', () => {
    expect(
      listQuery(describeResource(contacts), {
        filter: { 'age@<=': 40, role_ids: ['1', '2'], name: null, email: [] },
      }),
    ).toEqual({
      search: 'age:40;role_ids:1,2',
      searchFields: 'age:<=;role_ids:in',
    });
  });

  it('sends a from/to range as `between`, or `>=`/`<=` with one end when the field declares them', () => {
    const items = defineResource({
      name: 'items',
      endpoint: 'v1/test/items',
      permission: 'test.items',
      schema: z.object({
        price: field(z.number(), { search: ['between', '>=', '<='] }),
        made_on: field(z.iso.date().optional(), { search: 'between' }),
      }),
    });
    const query = (filter: Record<string, unknown>) => listQuery(describeResource(items), { filter });
    expect(query({ price: ['10', '20'], made_on: ['2024-01-01', '2024-12-31'] })).toEqual({
      search: 'price:10,20;made_on:2024-01-01,2024-12-31',
      searchFields: 'price:between;made_on:between',
    });
    expect(query({ price: ['10', ''] })).toEqual({ search: 'price:10', searchFields: 'price:>=' });
    expect(query({ price: [null, '20'] })).toEqual({ search: 'price:20', searchFields: 'price:<=' });
    expect(query({ made_on: ['2024-01-01', ''], price: ['', ''] })).toEqual({});
  });

  it('sorts on the timestamps the engine adds', () => {
    expect(listQuery(describeResource(contacts), { sort: { field: 'created_at', order: 'DESC' } })).toEqual({
      orderBy: 'created_at',
      sortedBy: 'desc',
    });
  });
});

describe('formPayload', () => {
  const notes = defineResource({
    name: 'notes',
    endpoint: 'v1/test/notes',
    permission: 'test.notes',
    schema: z.object({
      title: field(z.string().min(1), {}),
      body: field(z.string().optional(), {}),
      due: field(z.iso.date().nullable().optional(), {}),
      secret: field(z.string().optional(), { writeOnly: true }),
      views: field(z.number().optional(), { readOnly: true }),
      count: field(z.int().optional(), {}),
      level: field(z.int().default(1), {}),
    }),
  });

  it('sends only writable fields and leaves blanks out on create', () => {
    const values = { id: '1', title: 'T', body: '', due: null, secret: '', views: 3, created_at: 'x' };
    expect(formPayload({ resource: notes, values, isEdit: false })).toEqual({ title: 'T' });
  });

  it('clears a field on edit with the blank its schema accepts, and keeps a blank secret', () => {
    const values = { title: 'T', body: null, due: '', secret: '' };
    expect(formPayload({ resource: notes, values, isEdit: true })).toEqual({
      title: 'T',
      body: '',
      due: null,
    });
  });

  it('clears an optional number with null on edit; one with a default (NOT NULL) is left as stored', () => {
    const values = { count: null, level: null };
    expect(formPayload({ resource: notes, values, isEdit: true })).toEqual({ count: null });
    expect(formPayload({ resource: notes, values, isEdit: false })).toEqual({});
  });
});
