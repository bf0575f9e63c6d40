import { describe, expect, it } from 'vitest';
import { gadgets } from '../../../tests/fixtures/gadgets.ts';
import { TRIGRAM_MIN_LENGTH, parseListQuery } from './query.ts';

describe('like terms shorter than trigrams', () => {
  const shortLike = (raw: Record<string, string>) => parseListQuery(gadgets, raw).shortLike;

  it('flags a like search or q shorter than 3 characters (escapes and code points counted as typed)', () => {
    expect(TRIGRAM_MIN_LENGTH).toBe(3);
    expect(shortLike({ search: 'name:ab', searchFields: 'name:like' })).toBe(true);
    expect(shortLike({ q: 'ab' })).toBe(true);
    expect(shortLike({ q: '名字' })).toBe(true);
    expect(shortLike({ search: 'name:a%', searchFields: 'name:like' })).toBe(true);
  });

  it('does not flag 3 characters or more, nor searches without like', () => {
    expect(shortLike({ search: 'name:abc', searchFields: 'name:like' })).toBe(false);
    expect(shortLike({ q: '😀😀😀' })).toBe(false);
    expect(shortLike({ q: '%_\\' })).toBe(false);
    expect(shortLike({})).toBe(false);
  });
});
