import { describe, expect, it } from 'vitest';
import { activeMenuPath } from './activeMenuPath.ts';

describe('activeMenuPath', () => {
  it.each([
    ['/settings', '/settings'],
    ['/settings/', '/settings'],
    ['/settings/staff', '/settings/staff'],
    ['/settings/staff/create', '/settings/staff'],
    ['/settings/roles/12', '/settings/roles'],
  ])('%s -> %s', (path, expected) => {
    expect(activeMenuPath(path)).toBe(expected);
  });
});
