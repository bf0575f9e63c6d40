import { describe, expect, it } from 'vitest';
import {
  exampleOf,
  formatDateTime,
  formatNative,
  instantToNative,
  nativeToInstant,
  parseLocaleText,
} from './localeDate.ts';

describe('dates in the interface language', () => {
  it('writes a date as the language does: zh-CN 2025/07/04, en 07/04/2025', () => {
    expect(formatNative('2025-07-04', 'date', 'zh-CN')).toBe('2025/07/04');
    expect(formatNative('2025-07-04', 'date', 'en')).toBe('07/04/2025');
    expect(formatNative('2025-07-04T09:05', 'datetime', 'zh-CN')).toBe('2025/07/04 09:05');
    expect(formatNative('2025-07-04T21:05', 'datetime', 'en')).toBe('07/04/2025, 21:05');
    expect(formatNative('', 'date', 'en')).toBe('');
    expect(formatNative(null, 'date', 'en')).toBe('');
    expect(exampleOf('date', 'zh-CN')).toBe('2025/07/04');
  });

  it('reads what is typed in the order of the language', () => {
    expect(parseLocaleText('2025/07/04', 'date', 'zh-CN')).toBe('2025-07-04');
    expect(parseLocaleText('2025/7/4', 'date', 'zh-CN')).toBe('2025-07-04');
    expect(parseLocaleText('07/04/2025', 'date', 'en')).toBe('2025-07-04');
    expect(parseLocaleText('7/4/2025', 'date', 'en')).toBe('2025-07-04');
    // ISO is understood in any language.
    expect(parseLocaleText('2025-07-04', 'date', 'en')).toBe('2025-07-04');
    expect(parseLocaleText('2025/07/04 09:05', 'datetime', 'zh-CN')).toBe('2025-07-04T09:05');
    expect(parseLocaleText('07/04/2025, 21:05', 'datetime', 'en')).toBe('2025-07-04T21:05');
    expect(parseLocaleText('07/04/2025, 21:05:30', 'datetime', 'en')).toBe('2025-07-04T21:05');
    expect(parseLocaleText('07/04/2025', 'datetime', 'en')).toBe('2025-07-04T00:00');
    expect(parseLocaleText('  ', 'date', 'en')).toBe('');
  });

  it('refuses what is no real date', () => {
    expect(parseLocaleText('2025/02/30', 'date', 'zh-CN')).toBeNull();
    expect(parseLocaleText('07/04/2025', 'date', 'zh-CN')).toBeNull();
    expect(parseLocaleText('13/04/2025', 'date', 'en')).toBeNull();
    expect(parseLocaleText('7/4/25', 'date', 'en')).toBeNull();
    expect(parseLocaleText('2025/07', 'date', 'zh-CN')).toBeNull();
    expect(parseLocaleText('2025/07/04 25:00', 'datetime', 'zh-CN')).toBeNull();
    expect(parseLocaleText('tomorrow', 'date', 'en')).toBeNull();
  });

  it('converts between instants and the local time of a datetime box', () => {
    const native = instantToNative('2025-07-04T09:05:00.000Z');
    expect(native).toMatch(/^2025-07-0[45]T\d{2}:05$/);
    expect(nativeToInstant(native)).toBe('2025-07-04T09:05:00.000Z');
    expect(instantToNative(null)).toBe('');
    expect(instantToNative('nonsense')).toBe('');
  });

  it('shows stored instants for reading, with seconds, in the language of the interface', () => {
    const at = new Date(2025, 6, 4, 9, 5, 7);
    expect(formatDateTime(at, 'zh-CN')).toBe('2025/07/04 09:05:07');
    expect(formatDateTime(at.toISOString(), 'en')).toBe('07/04/2025, 09:05:07');
    expect(formatDateTime(at, 'en', { time: false })).toBe('07/04/2025');
    expect(formatDateTime(null, 'en')).toBe('—');
  });
});
