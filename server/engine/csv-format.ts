import type { Resource } from '../../resources/define.ts';
import type { Queryable } from '../db/index.ts';
import { loadDictionary } from './dictionaries.ts';
import { fieldByName, type FieldInfo, type FieldKind } from './fields.ts';
import { enumLabel, type Lang } from './labels.ts';

/** Per-column cell writer for CSV export: labels for enums/dictionaries/booleans, formula escaping. */
export type CellWriter = (value: unknown) => string | number;

/** A cell that a spreadsheet would run as a formula gets a leading quote (OWASP CSV injection). */
export function escapeFormula(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Cell writers by kind; `label` maps enum/dictionary values to their labels. */
const WRITERS: Record<
  FieldKind,
  (value: unknown, c: { label: (v: string) => string; yes: string; no: string }) => string | number
> = {
  string: (v, c) => escapeFormula(c.label(String(v))),
  text: (v) => escapeFormula(String(v)),
  email: (v) => escapeFormula(String(v)),
  url: (v) => escapeFormula(String(v)),
  enum: (v, c) => escapeFormula(c.label(String(v))),
  int: (v) => Number(v),
  number: (v) => Number(v),
  boolean: (v, c) => (v ? c.yes : c.no),
  date: (v) => String(v),
  datetime: (v) => (v instanceof Date ? v.toISOString() : String(v)),
  json: (v) => escapeFormula(JSON.stringify(v)),
  reference: (v) => String(v),
  references: (v) => (v as string[]).join(','),
};

/** Builds the cell writer of each exported column, with labels in `lang` (a request or `langOf(locale)`). */
export async function cellWriters(
  db: Queryable,
  lang: Lang,
  resource: Resource,
  columns: readonly string[],
): Promise<CellWriter[]> {
  const yes = lang.t('engine.csv.yes');
  const no = lang.t('engine.csv.no');
  return Promise.all(
    columns.map(async (name) => {
      const f: Pick<FieldInfo, 'kind' | 'meta' | 'name'> = fieldByName(resource, name) ?? {
        name,
        kind: name === 'id' ? 'reference' : 'datetime',
        meta: {},
      };
      const dict = f.meta.dictionary ? await loadDictionary(db, f.meta.dictionary, lang.locale) : null;
      const label = dict
        ? (v: string) => dict.get(v) ?? v
        : f.kind === 'enum'
          ? (v: string) => enumLabel(lang, resource, f.name, v)
          : (v: string) => v;
      const write = WRITERS[f.kind];
      return (value: unknown) =>
        value === null || value === undefined ? '' : write(value, { label, yes, no });
    }),
  );
}
