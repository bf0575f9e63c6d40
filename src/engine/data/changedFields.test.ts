import { describe, expect, it } from 'vitest';
import { changedFields } from './changedFields.ts';

describe('changedFields', () => {
  it('keeps only the fields that differ from the loaded record', () => {
    const previous = { id: '1', name: 'Li', email: 'li@example.com', stock: 2 };
    expect(changedFields({ ...previous, name: 'Wang' }, previous)).toEqual({ name: 'Wang' });
    expect(changedFields({ ...previous }, previous)).toEqual({});
  });

  it('never sends id or the timestamps, even when they differ', () => {
    const previous = { id: '1', created_at: 'a', updated_at: 'b', name: 'x' };
    expect(changedFields({ id: '2', created_at: 'c', updated_at: 'd', name: 'x' }, previous)).toEqual({});
  });

  it('treats every blank as the same blank (undefined, null, empty string)', () => {
    expect(changedFields({ note: '' }, {})).toEqual({});
    expect(changedFields({ note: null }, { note: '' })).toEqual({});
    expect(changedFields({ note: '' }, { note: 'was set' })).toEqual({ note: '' });
    expect(changedFields({ note: 0 }, { note: null })).toEqual({ note: 0 });
  });

  it('compares objects and arrays deeply, arrays in order', () => {
    const previous = { specs: { size: 1, tags: ['a', 'b'] }, role_ids: ['1', '2'] };
    expect(changedFields({ specs: { size: 1, tags: ['a', 'b'] }, role_ids: ['1', '2'] }, previous)).toEqual(
      {},
    );
    expect(changedFields({ specs: { size: 2, tags: ['a', 'b'] } }, previous)).toEqual({
      specs: { size: 2, tags: ['a', 'b'] },
    });
    expect(changedFields({ role_ids: ['2', '1'] }, previous)).toEqual({ role_ids: ['2', '1'] });
    expect(changedFields({ role_ids: { 0: '1', 1: '2' } }, previous)).toEqual({
      role_ids: { 0: '1', 1: '2' },
    });
  });
});
