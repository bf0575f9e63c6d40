/**
 * The one way each interface language writes a date and a time, shared by the screens (src/lib/localeDate.ts)
 * and the CSV export (server/engine/csv/format.ts writes it with PostgreSQL's `to_char`, XLSX with a
 * matching number format): zh-CN `2025/07/04 09:05:07`, en `07/04/2025, 09:05:07`. Seconds, not minutes:
 * a writable time set to the second must survive an export and an import of the file untouched
 * (csv/parse-row.ts reads every language's format back, and ISO). Hours are always 24-hour.
 *
 * @example formatWallClock({ year: 2025, month: 7, day: 4, hour: 9, minute: 5, second: 7 }, 'en', 'datetime')
 * // -> '07/04/2025, 09:05:07'
 */
export type TimeKind = 'date' | 'datetime';

export type WallClockPart = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second';

export type WallClock = Record<WallClockPart, number>;

/** A part of a layout: a number (`year` padded to 4 digits, the rest to 2) or a literal. */
export type LayoutToken = { part: WallClockPart } | { literal: string };

/** The languages with a format of their own; any other falls back to the first whose prefix it shares, else en. */
export const TIME_FORMATS = {
  'zh-CN': { date: 'YYYY/MM/DD', time: ' HH:mm:ss' },
  en: { date: 'MM/DD/YYYY', time: ', HH:mm:ss' },
} as const;

type FormatLocale = keyof typeof TIME_FORMATS;

/** The language's own format key (`zh`, `zh-TW` -> zh-CN; anything unknown -> en). */
export function timeLocaleOf(locale: string): FormatLocale {
  if (locale in TIME_FORMATS) return locale as FormatLocale;
  const base = locale.split('-')[0]!.toLowerCase();
  const found = Object.keys(TIME_FORMATS).find((k) => k.split('-')[0]!.toLowerCase() === base);
  return (found as FormatLocale | undefined) ?? 'en';
}

/** The pattern (`YYYY/MM/DD HH:mm:ss`) of a kind in a language; without seconds when `seconds` is false. */
export function timePattern(locale: string, kind: TimeKind, { seconds = true } = {}): string {
  const f = TIME_FORMATS[timeLocaleOf(locale)];
  if (kind === 'date') return f.date;
  return f.date + (seconds ? f.time : f.time.replace(':ss', ''));
}

const TOKENS: [string, WallClockPart][] = [
  ['YYYY', 'year'],
  ['MM', 'month'],
  ['DD', 'day'],
  ['HH', 'hour'],
  ['mm', 'minute'],
  ['ss', 'second'],
];

/** The pattern as a sequence of parts and literals. */
export function timeLayout(locale: string, kind: TimeKind, options?: { seconds?: boolean }): LayoutToken[] {
  const pattern = timePattern(locale, kind, options);
  const out: LayoutToken[] = [];
  let i = 0;
  while (i < pattern.length) {
    const token = TOKENS.find(([t]) => pattern.startsWith(t, i));
    if (token) {
      out.push({ part: token[1] });
      i += token[0].length;
      continue;
    }
    const last = out[out.length - 1];
    if (last && 'literal' in last) last.literal += pattern[i];
    else out.push({ literal: pattern[i]! });
    i += 1;
  }
  return out;
}

/** A wall clock in the language's format. */
export function formatWallClock(
  values: WallClock,
  locale: string,
  kind: TimeKind,
  options?: { seconds?: boolean },
): string {
  return timeLayout(locale, kind, options)
    .map((t) =>
      'literal' in t ? t.literal : String(values[t.part]).padStart(t.part === 'year' ? 4 : 2, '0'),
    )
    .join('');
}

/** The `to_char` template that writes the same text in PostgreSQL (literals double-quoted). */
export function sqlTimePattern(locale: string, kind: TimeKind): string {
  const SQL: Record<WallClockPart, string> = {
    year: 'YYYY',
    month: 'MM',
    day: 'DD',
    hour: 'HH24',
    minute: 'MI',
    second: 'SS',
  };
  return timeLayout(locale, kind)
    .map((t) => ('literal' in t ? `"${t.literal}"` : SQL[t.part]))
    .join('');
}

/** The spreadsheet number format that shows a date cell the same way (`mm/dd/yyyy", "hh:mm:ss`). */
export function excelTimeFormat(locale: string, kind: TimeKind): string {
  const XLSX: Record<WallClockPart, string> = {
    year: 'yyyy',
    month: 'mm',
    day: 'dd',
    hour: 'hh',
    minute: 'mm',
    second: 'ss',
  };
  return timeLayout(locale, kind)
    .map((t) =>
      'literal' in t ? (/^[/: -]+$/.test(t.literal) ? t.literal : `"${t.literal}"`) : XLSX[t.part],
    )
    .join('');
}

/** What every language's format (and ISO `YYYY-MM-DD[ T]HH:mm[:ss[.fff]]`) looks like, with a fraction. */
const YEAR_FIRST =
  /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:(?:[ T]|,\s*)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;
const YEAR_LAST = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:,?\s+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

/**
 * A wall clock written in any language's format (or ISO without an offset) -> its parts and the fraction of a
 * second as written (`''` when none); null for anything else. The formats cannot be confused: the year is
 * first (zh-CN, ISO) or last (en). It does not check that the date is real.
 */
export function parseWallClock(
  text: string,
): { values: WallClock; fraction: string; hasTime: boolean } | null {
  const t = text.trim();
  let m = YEAR_FIRST.exec(t);
  let ymd: [string, string, string] | null = m ? [m[1]!, m[2]!, m[3]!] : null;
  if (!m) {
    m = YEAR_LAST.exec(t);
    if (m) ymd = [m[3]!, m[1]!, m[2]!];
  }
  if (!m || !ymd) return null;
  const [h, mi, s, fraction] = [m[4], m[5], m[6], m[7]];
  return {
    values: {
      year: Number(ymd[0]),
      month: Number(ymd[1]),
      day: Number(ymd[2]),
      hour: Number(h ?? 0),
      minute: Number(mi ?? 0),
      second: Number(s ?? 0),
    },
    fraction: fraction ?? '',
    hasTime: h !== undefined,
  };
}
