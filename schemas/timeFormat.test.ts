import { describe, expect, it } from 'vitest';
import { formatDateTime, parseLocaleText } from '../src/lib/localeDate.ts';
import {
  excelTimeFormat,
  formatWallClock,
  parseWallClock,
  sqlTimePattern,
  timeLocaleOf,
  TIME_FORMATS,
  type WallClock,
} from './timeFormat.ts';

const LOCALES = Object.keys(TIME_FORMATS);

/** Wall clocks with every part at one and two digits, midnight, the last second of a year, a leap day. */
const CLOCKS: WallClock[] = [
  { year: 2025, month: 7, day: 4, hour: 9, minute: 5, second: 7 },
  { year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 59 },
  { year: 2024, month: 2, day: 29, hour: 0, minute: 0, second: 0 },
  { year: 2030, month: 10, day: 11, hour: 12, minute: 30, second: 45 },
];

const local = (c: WallClock) => new Date(c.year, c.month - 1, c.day, c.hour, c.minute, c.second);

describe('one time format per language', () => {
  it('is the string the screens render and the one the CSV export writes', () => {
    expect(formatWallClock(CLOCKS[0]!, 'zh-CN', 'datetime')).toBe('2025/07/04 09:05:07');
    expect(formatWallClock(CLOCKS[0]!, 'en', 'datetime')).toBe('07/04/2025, 09:05:07');
    for (const locale of LOCALES)
      for (const c of CLOCKS) {
        // src/lib/localeDate.ts: the list, show and system pages.
        expect(formatDateTime(local(c), locale)).toBe(formatWallClock(c, locale, 'datetime'));
        expect(formatDateTime(local(c), locale, { time: false })).toBe(formatWallClock(c, locale, 'date'));
      }
  });

  it('gives PostgreSQL and spreadsheets the same pattern', () => {
    expect(sqlTimePattern('zh-CN', 'datetime')).toBe('YYYY"/"MM"/"DD" "HH24":"MI":"SS');
    expect(sqlTimePattern('en', 'datetime')).toBe('MM"/"DD"/"YYYY", "HH24":"MI":"SS');
    expect(sqlTimePattern('en', 'date')).toBe('MM"/"DD"/"YYYY');
    expect(excelTimeFormat('zh-CN', 'datetime')).toBe('yyyy/mm/dd hh:mm:ss');
    expect(excelTimeFormat('en', 'datetime')).toBe('mm/dd/yyyy", "hh:mm:ss');
  });

  it('reads back what any language writes, and ISO, whatever the reader language', () => {
    for (const locale of LOCALES)
      for (const c of CLOCKS) {
        const written = formatWallClock(c, locale, 'datetime');
        expect(parseWallClock(written)).toEqual({ values: c, fraction: '', hasTime: true });
        expect(parseWallClock(formatWallClock(c, locale, 'date'))?.hasTime).toBe(false);
        // What a person types into a date box reads the same way.
        expect(parseLocaleText(written, 'datetime', locale)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
      }
    expect(parseWallClock('2026-03-01 08:00:00.123456')).toMatchObject({ fraction: '123456', hasTime: true });
    expect(parseWallClock('2026-03-01T08:00')?.values).toMatchObject({ hour: 8, minute: 0, second: 0 });
    expect(parseWallClock('03/01/2026 08:00')?.values).toMatchObject({ year: 2026, month: 3, day: 1 });
    for (const bad of ['', 'soon', '2026-03-01 08', '26/03/01', '2026-03-01 08:00+08:00', '01/02/26'])
      expect(parseWallClock(bad), bad).toBeNull();
  });

  it('falls back by language, then to en', () => {
    expect(timeLocaleOf('zh')).toBe('zh-CN');
    expect(timeLocaleOf('zh-TW')).toBe('zh-CN');
    expect(timeLocaleOf('en-GB')).toBe('en');
    expect(timeLocaleOf('fr')).toBe('en');
  });
});
