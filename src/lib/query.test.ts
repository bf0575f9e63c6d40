import { describe, expect, it } from 'vitest';
import { encodeSearch, encodeSearchFields } from './query.ts';

describe('encodeSearch', () => {
  it('joins field:value pairs with semicolons in key order', () => {
    expect(encodeSearch({ name: 'li', state: 1 })).toBe('name:li;state:1');
  });

  it('drops null, undefined and empty entries but keeps 0 and false', () => {
    expect(encodeSearch({ a: null, b: undefined, c: '', d: 0, e: false, f: [] })).toBe('d:0;e:false');
  });

  it('joins list values with commas for the `in` and `between` conditions', () => {
    expect(encodeSearch({ id: [1, 2, 3], created_at: ['2024-01-01', '2024-12-31'] })).toBe(
      'id:1,2,3;created_at:2024-01-01,2024-12-31',
    );
  });

  it('escapes ; : , and the backslash inside values and list items', () => {
    expect(encodeSearch({ name: 'Eve:Colon;Semi', sku: ['a,b', 'c\\'] })).toBe(
      'name:Eve\\:Colon\\;Semi;sku:a\\,b,c\\\\',
    );
  });

  it('gives an empty string when nothing is left', () => {
    expect(encodeSearch({ a: '' })).toBe('');
  });
});

describe('encodeSearchFields', () => {
  it('drops falsy conditions and joins the rest', () => {
    expect(
      encodeSearchFields({ name: 'like', state: '=', email: '', phone: null, x: undefined, y: false }),
    ).toBe('name:like;state:=');
  });
});
