import { describe, expect, it } from 'vitest';
import { gadgets } from '../../../tests/fixtures/gadgets.ts';
import { AppError } from '../../core/errors.ts';
import { escapeLike, parseListQuery, type RawQuery } from './query.ts';

/** [description, query, expected WHERE, expected params] */
const WHERE_CASES: [string, RawQuery, string, unknown[]][] = [
  ['no search', {}, '', []],
  ['default condition (first declared)', { search: 'name:li' }, 'WHERE ("name"::text ILIKE $1)', ['%li%']],
  ['explicit =', { search: 'name:x', searchFields: 'name:=' }, 'WHERE ("name" = $1)', ['x']],
  ['like escapes % and _', { search: 'name:5%_a\\' }, 'WHERE ("name"::text ILIKE $1)', ['%5\\%\\_a\\\\%']],
  ['in', { search: 'sku:a,b,c', searchFields: 'sku:in' }, 'WHERE ("sku" IN ($1, $2, $3))', ['a', 'b', 'c']],
  [
    'between ints',
    { search: 'stock:1,5', searchFields: 'stock:between' },
    'WHERE ("stock" BETWEEN $1 AND $2)',
    [1, 5],
  ],
  ['>=', { search: 'price:2.5', searchFields: 'price:>=' }, 'WHERE ("price" >= $1)', [2.5]],
  ['<=', { search: 'price:9', searchFields: 'price:<=' }, 'WHERE ("price" <= $1)', [9]],
  ['<>', { search: 'stock:3', searchFields: 'stock:<>' }, 'WHERE ("stock" IS DISTINCT FROM $1)', [3]],
  ['boolean 1/0', { search: 'state:0' }, 'WHERE ("state" = $1)', [false]],
  ['boolean true', { search: 'state:true' }, 'WHERE ("state" = $1)', [true]],
  [
    'enum in',
    { search: 'color:red,blue', searchFields: 'color:in' },
    'WHERE ("color" IN ($1, $2))',
    ['red', 'blue'],
  ],
  [
    'date between',
    { search: 'released_on:2024-01-01,2024-12-31' },
    'WHERE ("released_on" BETWEEN $1 AND $2)',
    ['2024-01-01', '2024-12-31'],
  ],
  ['reference =', { search: 'maker_id:7' }, 'WHERE ("maker_id" = $1)', ['7']],
  ['id in (getMany)', { search: 'id:1,2', searchFields: 'id:in' }, 'WHERE ("id" IN ($1, $2))', ['1', '2']],
  [
    'two pairs joined with and',
    { search: 'name:li;state:1', searchFields: 'name:like;state:=' },
    'WHERE ("name"::text ILIKE $1) AND ("state" = $2)',
    ['%li%', true],
  ],
  [
    'searchJoin or',
    { search: 'name:li;sku:x', searchFields: 'sku:=', searchJoin: 'or' },
    'WHERE ("name"::text ILIKE $1) OR ("sku" = $2)',
    ['%li%', 'x'],
  ],
  ['empty values are dropped', { search: 'name:;state:1' }, 'WHERE ("state" = $1)', [true]],
  ['value with colons', { search: 'name:a:b' }, 'WHERE ("name"::text ILIKE $1)', ['%a:b%']],
  [
    'bare term searches every like field',
    { search: 'foo' },
    'WHERE ("name"::text ILIKE $1 OR "description"::text ILIKE $1)',
    ['%foo%'],
  ],
  [
    'many-to-many in',
    { search: 'tag_ids:1,2', searchFields: 'tag_ids:in' },
    'WHERE (EXISTS (SELECT 1 FROM "gadgets_gadget_tags" j WHERE j."gadget_id" = "gadgets"."id" AND j."tag_id" IN ($1, $2)))',
    ['1', '2'],
  ],
  [
    'escaped ; and : stay in the value',
    { search: 'name:Eve\\:Colon\\;Semi;state:1' },
    'WHERE ("name"::text ILIKE $1) AND ("state" = $2)',
    ['%Eve:Colon;Semi%', true],
  ],
  [
    'escaped , stays inside one in-item',
    { search: 'sku:a\\,b,c\\\\', searchFields: 'sku:in' },
    'WHERE ("sku" IN ($1, $2))',
    ['a,b', 'c\\'],
  ],
  [
    'escaped backslash before a separator',
    { search: 'name:x\\\\;state:0', searchFields: 'name:=' },
    'WHERE ("name" = $1) AND ("state" = $2)',
    ['x\\', false],
  ],
  [
    'other backslashes are kept',
    { search: 'name:C\\temp', searchFields: 'name:=' },
    'WHERE ("name" = $1)',
    ['C\\temp'],
  ],
  [
    'escaped colon in a bare term',
    { search: 'a\\:b' },
    'WHERE ("name"::text ILIKE $1 OR "description"::text ILIKE $1)',
    ['%a:b%'],
  ],
  [
    'q searches every like-searchable field',
    { q: ' 50%;a:b ' },
    'WHERE ("name"::text ILIKE $1 OR "description"::text ILIKE $1 OR "email"::text ILIKE $1)',
    ['%50\\%;a:b%'],
  ],
  [
    'q is ANDed with the pairs, which keep their join',
    { q: 'x', search: 'sku:a;state:1', searchFields: 'sku:=', searchJoin: 'or' },
    'WHERE ("name"::text ILIKE $3 OR "description"::text ILIKE $3 OR "email"::text ILIKE $3) AND (("sku" = $1) OR ("state" = $2))',
    ['a', true, '%x%'],
  ],
  ['blank q is ignored', { q: '  ' }, '', []],
  [
    'injection in a value stays a value',
    { search: "name:x') OR '1'='1' --", searchFields: 'name:=' },
    'WHERE ("name" = $1)',
    ["x') OR '1'='1' --"],
  ],
];

const ORDER_CASES: [string, RawQuery, string][] = [
  ['default id desc', {}, 'ORDER BY "gadgets"."id" DESC'],
  ['one field', { orderBy: 'name' }, 'ORDER BY "gadgets"."name" ASC, "gadgets"."id" ASC'],
  [
    'several fields and directions',
    { orderBy: 'price;name', sortedBy: 'desc;asc' },
    'ORDER BY "gadgets"."price" DESC, "gadgets"."name" ASC, "gadgets"."id" ASC',
  ],
  [
    'one direction for all',
    { orderBy: 'price;stock', sortedBy: 'desc' },
    'ORDER BY "gadgets"."price" DESC, "gadgets"."stock" DESC, "gadgets"."id" DESC',
  ],
  ['id given', { orderBy: 'id', sortedBy: 'asc' }, 'ORDER BY "gadgets"."id" ASC'],
  [
    'system timestamps',
    { orderBy: 'created_at', sortedBy: 'desc' },
    'ORDER BY "gadgets"."created_at" DESC, "gadgets"."id" DESC',
  ],
];

/** [description, query, status key, field named in `errors`] */
const ERROR_CASES: [string, RawQuery, string, string][] = [
  ['unknown search field', { search: 'nope:1' }, 'engine.query.unknown_search_field', 'nope'],
  [
    'field not declared searchable',
    { search: 'homepage:x' },
    'engine.query.unknown_search_field',
    'homepage',
  ],
  ['write-only never searchable', { search: 'secret:x' }, 'engine.query.unknown_search_field', 'secret'],
  [
    'injection in a field name',
    { search: 'name" OR 1=1 --:x' },
    'engine.query.unknown_search_field',
    'name" OR 1=1 --',
  ],
  ['unknown field in searchFields', { searchFields: 'nope:=' }, 'engine.query.unknown_search_field', 'nope'],
  [
    'condition not declared',
    { search: 'name:x', searchFields: 'name:between' },
    'engine.query.bad_condition',
    'name',
  ],
  ['unknown condition', { search: 'name:x', searchFields: 'name:~' }, 'engine.query.bad_condition', 'name'],
  [
    'injection in an int value',
    { search: 'stock:1 OR 1=1', searchFields: 'stock:=' },
    'engine.query.bad_value',
    'stock',
  ],
  ['non-numeric int', { search: 'stock:abc', searchFields: 'stock:=' }, 'engine.query.bad_value', 'stock'],
  [
    'between needs two values',
    { search: 'stock:1', searchFields: 'stock:between' },
    'engine.query.bad_between',
    'stock',
  ],
  ['bad date', { search: 'released_on:yesterday,2024-01-01' }, 'engine.query.bad_value', 'released_on'],
  ['bad boolean', { search: 'state:maybe' }, 'engine.query.bad_value', 'state'],
  ['bad searchJoin', { search: 'name:x', searchJoin: 'xor' }, 'engine.query.bad_join', 'searchJoin'],
  ['unknown sort field', { orderBy: 'description' }, 'engine.query.unknown_sort_field', 'description'],
  [
    'injection in orderBy',
    { orderBy: 'name; DROP TABLE gadgets' },
    'engine.query.unknown_sort_field',
    'DROP TABLE gadgets',
  ],
  ['bad direction', { orderBy: 'name', sortedBy: 'sideways' }, 'engine.query.bad_direction', 'sortedBy'],
  ['size 0', { size: '0' }, 'engine.query.bad_range', 'size'],
  ['size over 1000', { size: '1001' }, 'engine.query.bad_range', 'size'],
  ['page 0', { page: '0' }, 'engine.query.bad_range', 'page'],
  ['page not a number', { page: 'x' }, 'engine.query.bad_range', 'page'],
  ['unknown include', { include: 'owner' }, 'engine.query.unknown_include', 'owner'],
  [
    'an escaped , does not make two between ends',
    { search: 'stock:1\\,5', searchFields: 'stock:between' },
    'engine.query.bad_between',
    'stock',
  ],
];

describe('parseListQuery', () => {
  it.each(WHERE_CASES)('%s', (_, raw, where, params) => {
    const q = parseListQuery(gadgets, raw);
    expect(q.where).toBe(where);
    expect(q.params).toEqual(params);
  });

  it.each(ORDER_CASES)('order: %s', (_, raw, orderBy) => {
    expect(parseListQuery(gadgets, raw).orderBy).toBe(orderBy);
  });

  it.each(ERROR_CASES)('422: %s', (_, raw, key, field) => {
    let error: unknown;
    try {
      parseListQuery(gadgets, raw);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).key).toBe(key);
    expect(Object.keys((error as AppError).fields ?? {})).toEqual([field]);
  });

  it('pages: defaults 1/15, accepts 1..1000', () => {
    expect(parseListQuery(gadgets, {})).toMatchObject({ page: 1, size: 15 });
    expect(parseListQuery(gadgets, { page: '3', size: '1000' })).toMatchObject({ page: 3, size: 1000 });
  });

  it('includes: belongsTo, manyToMany and hasMany names', () => {
    expect(parseListQuery(gadgets, { include: 'maker,tags,parts' }).includes).toEqual([
      'maker',
      'tags',
      'parts',
    ]);
  });

  it('escapeLike', () => {
    expect(escapeLike('a%b_c\\d')).toBe('a\\%b\\_c\\\\d');
  });
});
