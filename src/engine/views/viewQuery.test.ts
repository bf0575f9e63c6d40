import { describe, expect, it } from 'vitest';
import { describeResource } from '../data/descriptor.ts';
import { contacts } from '../testing/contacts.ts';
import { listStateOf, viewQueryOf } from './viewQuery.ts';

const resource = describeResource(contacts);

describe('viewQueryOf / listStateOf', () => {
  it.each([
    [{ name: 'li' }, { field: 'name', order: 'ASC' }],
    [
      { name: 'Eve:C;S,x\\y', gender: 'female', q: 'some text' },
      { field: 'age', order: 'DESC' },
    ],
    [{ age: [18, 65] }, { field: 'name', order: 'DESC' }],
    [
      { 'age@>=': 21, state: true },
      { field: 'name', order: 'ASC' },
    ],
  ] as const)('turns a list state into the list query and back: %j', (filter, sort) => {
    const query = viewQueryOf(resource, { filter: { ...filter }, sort: { ...sort } });
    const back = listStateOf(resource, query);
    // The list state read back sends the same query.
    expect(viewQueryOf(resource, back)).toEqual(query);
    expect(back.sort).toEqual(sort);
  });

  it('writes the query as the list sends it', () => {
    expect(
      viewQueryOf(resource, { filter: { name: 'a;b', q: 'x' }, sort: { field: 'name', order: 'DESC' } }),
    ).toEqual({ search: 'name:a\\;b', searchFields: 'name:like', q: 'x', orderBy: 'name', sortedBy: 'desc' });
  });
});
