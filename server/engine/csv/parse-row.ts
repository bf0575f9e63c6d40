import { LOCALES, translate } from '../../../locales/index.ts';
import type { Resource } from '../../../resources/define.ts';
import { isFlag } from '../../../resources/flag.ts';
import { getSettings } from '../../core/settings.ts';
import type { Queryable } from '../../db/index.ts';
import { parseWallClock } from '../../../schemas/timeFormat.ts';
import { unescapeFormula } from './formula.ts';
import { ReferenceCell } from './references.ts';
import { loadDictionary } from '../dictionaries.ts';
import { fieldsOf, type FieldInfo, type FieldKind } from '../schema/fields.ts';
import type { Lang } from '../labels.ts';

/** Columns an import ignores: the system columns and read-only fields an export writes. */
const IGNORED = new Set(['id', 'created_at', 'updated_at', 'created_by', 'updated_by']);

/**
 * Cell text -> input value by kind (before zod validates it); '' means "not given". Text cells lose the `'`
 * an export puts before a formula-like value (`'+86...` reads as `+86...`).
 */
const READERS: Record<FieldKind, (cell: string, c: ReaderContext) => unknown> = {
  string: (v, c) => c.fromLabel(unescapeFormula(v)),
  text: unescapeFormula,
  email: unescapeFormula,
  url: unescapeFormula,
  enum: (v, c) => c.fromLabel(unescapeFormula(v)),
  int: (v, c) => {
    const flag = isFlag(c.field) ? c.booleans.get(v.trim().toLowerCase()) : undefined;
    return flag === undefined ? toNumber(v) : flag ? 1 : 0;
  },
  number: toNumber,
  boolean: (v, c) => c.booleans.get(v.trim().toLowerCase()) ?? v,
  date: dateToIso,
  datetime: (v, c) => zonedToIso(v.trim(), c.timezone),
  json: (v) => {
    try {
      return JSON.parse(unescapeFormula(v)) as unknown;
    } catch {
      return v;
    }
  },
  // Representations or ids, resolved for the whole file at once (csv/references.ts).
  reference: (v, c) => (c.hasTarget ? new ReferenceCell(c.field, unescapeFormula(v.trim())) : v.trim()),
  references: (v, c) =>
    c.hasTarget
      ? new ReferenceCell(c.field, v.trim())
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
};

interface ReaderContext {
  field: FieldInfo;
  fromLabel(cell: string): string;
  booleans: Map<string, boolean>;
  /** The site's time zone: times without an offset are read in it, as an export writes them. */
  timezone: string;
  /** The relation's target is registered (its records can be looked up by representation). */
  hasTarget: boolean;
}

export interface ColumnReader {
  /** null: the column is ignored (id, timestamps, read-only). */
  field: string | null;
  read(cell: string): unknown;
}

/**
 * Maps each header cell (a field name, or its label in any language) to a reader, or reports the unknown
 * headers. Enum and dictionary labels are read back as values; booleans and 0/1 flags accept yes/no labels,
 * true/false, 1/0; times without an offset are in the site's time zone; references are left as
 * `ReferenceCell`s for `resolveReferences`.
 */
export async function columnReaders(
  ctx: { db: Queryable; resource: Resource; registry: readonly Resource[] },
  lang: Pick<Lang, 'locale'>,
  header: string[],
  keepId: boolean,
): Promise<{ readers: ColumnReader[]; unknown: string[] }> {
  const { db, resource } = ctx;
  const fields = fieldsOf(resource);
  const byLabel = new Map<string, FieldInfo>();
  for (const f of fields) {
    byLabel.set(f.name, f);
    for (const locale of LOCALES) {
      const key = f.meta.label ?? `resources.${resource.name}.fields.${f.name}`;
      const text = translate(locale, key);
      if (text !== key) byLabel.set(text, f);
    }
  }
  const booleans = new Map<string, boolean>([
    ['1', true],
    ['0', false],
    ['true', true],
    ['false', false],
  ]);
  for (const locale of LOCALES) {
    booleans.set(translate(locale, 'engine.csv.yes').toLowerCase(), true);
    booleans.set(translate(locale, 'engine.csv.no').toLowerCase(), false);
  }
  // The export labels the system columns too (`ID`, `创建时间`): read those labels back as the names, so an
  // untouched export imports again.
  const systemByLabel = new Map<string, string>();
  for (const name of IGNORED)
    for (const locale of LOCALES) {
      const key = `resources.${resource.name}.fields.${name}`;
      const text = translate(locale, key);
      if (text !== key) systemByLabel.set(text, name);
    }
  const timezone = (await getSettings(db, 'site')).timezone;
  const unknown: string[] = [];
  const readers: ColumnReader[] = [];
  for (const label of header.map((h) => h.trim())) {
    const cell = byLabel.has(label) ? label : (systemByLabel.get(label) ?? label);
    if (IGNORED.has(cell) && !(cell === 'id' && keepId)) {
      readers.push({ field: null, read: () => undefined });
      continue;
    }
    if (cell === 'id') {
      readers.push({ field: 'id', read: (v) => v.trim() });
      continue;
    }
    const f = byLabel.get(cell);
    if (!f) unknown.push(cell);
    if (!f || f.meta.readOnly) {
      readers.push({ field: null, read: () => undefined });
      continue;
    }
    const fromLabel = await labelReader(db, lang, resource, f);
    const hasTarget = ctx.registry.some((r) => r.name === f.meta.relation?.resource);
    const c: ReaderContext = { field: f, fromLabel, booleans, timezone, hasTarget };
    const read = f.meta.money ? readMoney : (v: string) => READERS[f.kind](v, c);
    readers.push({ field: f.name, read });
  }
  return { readers, unknown };
}

/** Whether a header row has the ID column (`id`, or the id's label in any language), as every export has. */
export function idColumn(resource: Resource, header: string[]): boolean {
  const names = new Set(['id']);
  for (const locale of LOCALES) names.add(translate(locale, `resources.${resource.name}.fields.id`));
  return header.some((h) => names.has(h.trim()));
}

/** Turns one CSV row into the object zod validates; empty cells are left out. */
export function rowInput(readers: ColumnReader[], cells: string[]): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  readers.forEach((reader, i) => {
    const cell = cells[i] ?? '';
    if (reader.field && cell !== '') input[reader.field] = reader.read(cell);
  });
  return input;
}

async function labelReader(db: Queryable, lang: Pick<Lang, 'locale'>, resource: Resource, f: FieldInfo) {
  const labels = new Map<string, string>();
  if (f.meta.dictionary) {
    const dict = await loadDictionary(db, f.meta.dictionary, lang.locale);
    for (const [value, label] of dict ?? []) labels.set(label, value);
  }
  for (const value of f.enumValues) {
    for (const locale of LOCALES) {
      const key = `resources.${resource.name}.enums.${f.name}.${value}`;
      const text = translate(locale, key);
      if (text !== key) labels.set(text, value);
    }
  }
  return (cell: string) => labels.get(cell) ?? cell;
}

/**
 * A `money()` cell in major units (`24.99`, `1,234.5`, `¥25`) -> minor units (`2499`), exactly (no float
 * rounding); anything else is left as text, so validation answers 422 naming the field.
 */
function readMoney(v: string): unknown {
  const text = v
    .trim()
    .replace(/[\s,]/g, '')
    .replace(/^([-+]?)[^\d.+-]+/, '$1');
  const m = /^([-+]?)(\d+)(?:\.(\d{0,2}))?$/.exec(text);
  if (!m) return v;
  const minor = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -minor : minor;
}

/**
 * A date in any language's format (`2025/07/04`, `07/04/2025`, ISO) -> `YYYY-MM-DD`; an .xlsx date cell reads
 * as `YYYY-MM-DD 00:00:00` when its column holds times too. Anything else is returned as it is, for the schema
 * to refuse.
 */
function dateToIso(text: string): string {
  const read = parseWallClock(text);
  const v = read?.values;
  if (!v || (read.hasTime && (v.hour || v.minute || v.second || /[1-9]/.test(read.fraction))))
    return text.trim();
  return `${String(v.year).padStart(4, '0')}-${pad(v.month)}-${pad(v.day)}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A local time in `zone`, in any language's format (schemas/timeFormat.ts) or ISO without an offset -> ISO
 * 8601 UTC (`...Z`, the fraction kept digit for digit); anything else (an ISO time with an offset, or text the
 * schema will refuse) is returned as it is.
 */
function zonedToIso(text: string, zone: string): string {
  const read = parseWallClock(text);
  if (!read?.hasTime) return text;
  const { year: y, month: mo, day: d, hour: h, minute: mi, second: s } = read.values;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return text;
  const local = Date.UTC(y, mo - 1, d, h, mi, s);
  if (Number.isNaN(local) || y < 1000) return text;
  let utc = local - zoneOffset(local, zone);
  utc = local - zoneOffset(utc, zone);
  const iso = new Date(utc).toISOString();
  if (Number.isNaN(utc) || iso.length !== 24) return text;
  return `${iso.slice(0, 19)}${read.fraction ? `.${read.fraction}` : ''}Z`;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `zone` is ahead of UTC at the instant `utc` (ms). */
function zoneOffset(utc: number, zone: string): number {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(zone, format);
  }
  const p = Object.fromEntries(format.formatToParts(new Date(utc)).map((x) => [x.type, Number(x.value)]));
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return wall - (utc - (((utc % 1000) + 1000) % 1000));
}

function toNumber(v: string): unknown {
  const n = Number(v.trim());
  return v.trim() !== '' && Number.isFinite(n) ? n : v;
}
