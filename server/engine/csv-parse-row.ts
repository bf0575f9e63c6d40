import { LOCALES, translate } from '../../locales/index.ts';
import type { Resource } from '../../resources/define.ts';
import type { Queryable } from '../db/index.ts';
import { unescapeFormula } from './csv-format.ts';
import { loadDictionary } from './dictionaries.ts';
import { fieldsOf, type FieldInfo, type FieldKind } from './fields.ts';
import type { Lang } from './labels.ts';

/** Columns an import ignores: the system columns and read-only fields an export writes. */
const IGNORED = new Set(['id', 'created_at', 'updated_at']);

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
  int: toNumber,
  number: toNumber,
  boolean: (v, c) => c.booleans.get(v.trim().toLowerCase()) ?? v,
  date: (v) => v.trim(),
  datetime: (v) => v.trim(),
  json: (v) => {
    try {
      return JSON.parse(unescapeFormula(v)) as unknown;
    } catch {
      return v;
    }
  },
  reference: (v) => v.trim(),
  references: (v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
};

interface ReaderContext {
  fromLabel(cell: string): string;
  booleans: Map<string, boolean>;
}

export interface ColumnReader {
  /** null: the column is ignored (id, timestamps, read-only). */
  field: string | null;
  read(cell: string): unknown;
}

/**
 * Maps each header cell (a field name, or its label in any language) to a reader, or reports the unknown
 * headers. Enum and dictionary labels are read back as values; booleans accept yes/no labels, true/false, 1/0.
 */
export async function columnReaders(
  db: Queryable,
  lang: Pick<Lang, 'locale'>,
  resource: Resource,
  header: string[],
  keepId: boolean,
): Promise<{ readers: ColumnReader[]; unknown: string[] }> {
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
    const read = f.meta.money ? readMoney : (v: string) => READERS[f.kind](v, { fromLabel, booleans });
    readers.push({ field: f.name, read });
  }
  return { readers, unknown };
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
export function readMoney(v: string): unknown {
  const text = v
    .trim()
    .replace(/[\s,]/g, '')
    .replace(/^([-+]?)[^\d.+-]+/, '$1');
  const m = /^([-+]?)(\d+)(?:\.(\d{0,2}))?$/.exec(text);
  if (!m) return v;
  const minor = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] === '-' ? -minor : minor;
}

function toNumber(v: string): unknown {
  const n = Number(v.trim());
  return v.trim() !== '' && Number.isFinite(n) ? n : v;
}
