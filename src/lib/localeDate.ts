import {
  formatWallClock,
  timeLayout,
  type LayoutToken,
  type WallClock,
  type WallClockPart,
} from '../../schemas/timeFormat.ts';

/**
 * Dates and times written the way the interface language writes them, not the browser's: zh-CN
 * `2025/07/04 09:05`, en `07/04/2025, 09:05`. The order of day, month and year and the separators are the
 * language's format in schemas/timeFormat.ts, the one the CSV export writes too; hours are always 24-hour
 * (no AM/PM to type).
 *
 * "Native" values are what `<input type="date">` and `<input type="datetime-local">` hold: `YYYY-MM-DD`
 * and `YYYY-MM-DDTHH:mm` (local time).
 */
export type DateKind = 'date' | 'datetime';

type Part = WallClockPart;

/** The language's sequence of parts and literals, from the format shared with the CSV export. */
function layout(locale: string, kind: DateKind, seconds = false): LayoutToken[] {
  return timeLayout(locale, kind, { seconds });
}

type Values = WallClock;

const DATE_PARTS = new Set<Part>(['year', 'month', 'day']);

function write(locale: string, kind: DateKind, values: Values, seconds = false): string {
  return formatWallClock(values, locale, kind, { seconds });
}

const NATIVE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/;

function nativeValues(native: string): Values | null {
  const m = NATIVE.exec(native);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  return { year: +y!, month: +mo!, day: +d!, hour: +h, minute: +mi, second: +s };
}

const pad = (n: number) => String(n).padStart(2, '0');

function toNative(kind: DateKind, v: Values): string {
  const day = `${String(v.year).padStart(4, '0')}-${pad(v.month)}-${pad(v.day)}`;
  return kind === 'date' ? day : `${day}T${pad(v.hour)}:${pad(v.minute)}`;
}

/** `2025-07-04` (or `2025-07-04T09:05`) as the language writes it; '' for a blank or unreadable value. */
export function formatNative(native: string | null | undefined, kind: DateKind, locale: string): string {
  const values = native ? nativeValues(native) : null;
  return values ? write(locale, kind, values) : '';
}

function isReal(v: Values): boolean {
  const date = new Date(Date.UTC(v.year, v.month - 1, v.day, v.hour, v.minute, v.second));
  return (
    v.year >= 1000 &&
    date.getUTCFullYear() === v.year &&
    date.getUTCMonth() === v.month - 1 &&
    date.getUTCDate() === v.day &&
    v.hour < 24 &&
    v.minute < 60 &&
    v.second < 60
  );
}

/**
 * What was typed, read in the language's order, as a native value: '' when blank, null when it is no real
 * date (`2025/02/30`, a two-digit year, missing parts). ISO `2025-07-04` is always understood as well.
 */
export function parseLocaleText(text: string, kind: DateKind, locale: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  let values = /^\d{4}-\d{2}-\d{2}/.test(trimmed) ? nativeValues(trimmed.replace(' ', 'T')) : null;
  if (!values) {
    const numbers = trimmed.match(/\d+/g) ?? [];
    const order = layout(locale, kind, true).flatMap((t) => ('part' in t ? [t.part] : []));
    // A date and time may be typed without its time (midnight) or without its seconds.
    const allowed = kind === 'date' ? [3] : [3, 5, 6];
    if (!allowed.includes(numbers.length)) return null;
    const wanted = numbers.length === 3 ? order.filter((p) => DATE_PARTS.has(p)) : order;
    if (numbers[wanted.indexOf('year')]?.length !== 4) return null;
    const found: Values = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
    numbers.forEach((n, i) => (found[wanted[i]!] = Number(n)));
    values = found;
  }
  if (kind === 'date') values = { ...values, hour: 0, minute: 0, second: 0 };
  return isReal(values) ? toNative(kind, values) : null;
}

/** An example of the language's format, for placeholders: zh-CN `2025/07/04`, en `07/04/2025, 09:30`. */
export function exampleOf(kind: DateKind, locale: string): string {
  return write(locale, kind, { year: 2025, month: 7, day: 4, hour: 9, minute: 30, second: 0 });
}

/** An ISO instant as the local `YYYY-MM-DDTHH:mm` of a datetime-local input ('' when blank or unreadable). */
export function instantToNative(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A local `YYYY-MM-DDTHH:mm` as an ISO instant (`2025-07-04T01:30:00.000Z` in UTC+8). */
export function nativeToInstant(native: string): string {
  return new Date(native).toISOString();
}

/**
 * A stored date or instant for reading, in the language's numeric format and the browser's time zone:
 * `2025/07/04 09:05:07` (zh-CN), `07/04/2025, 09:05:07` (en); '—' when blank.
 */
export function formatDateTime(value: unknown, locale: string, { time = true } = {}): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = value instanceof Date ? value : new Date(String(value));
  if (Number.isNaN(date.getTime())) return String(value);
  const values: Values = {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
  };
  return time ? write(locale, 'datetime', values, true) : write(locale, 'date', values);
}
