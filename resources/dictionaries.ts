import * as z from 'zod';
import { DEFAULT_LOCALE, LOCALES } from '../locales/languages.ts';
import { PERMISSION } from '../schemas/permissions.ts';
import { defineDictionary } from './default-dictionaries.ts';
import { defineResource, field } from './define.ts';

const EMPTY_ENTRY = 'validation.dictionary_data';
const BOOLEAN_INPUTS: Record<string, boolean> = { '1': true, '0': false, true: true, false: false };

/** `{ en: ' ', fr: undefined }` -> undefined: only translations with text are kept. */
function withoutBlanks(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value ?? undefined;
  const kept = Object.entries(value).filter(
    ([, v]) => !(v === undefined || v === null || (typeof v === 'string' && !v.trim())),
  );
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/** One dictionary entry: label and value are required (spec 5: "Dictionary data label or value cannot be empty"). */
export const dictionaryEntrySchema = z.object({
  label: z.string({ error: EMPTY_ENTRY }).trim().min(1, { error: EMPTY_ENTRY }).max(100),
  value: z.string({ error: EMPTY_ENTRY }).trim().min(1, { error: EMPTY_ENTRY }).max(100),
  // `state` is a boolean on the wire; requests may send 1/0 (API contract, core records).
  state: z.preprocess(
    (v) => (typeof v === 'string' || typeof v === 'number' ? (BOOLEAN_INPUTS[String(v)] ?? v) : v),
    z.boolean().default(true),
  ),
  // Forms send a cleared memo as null; it is stored as ''. Optional: an entry sent without one gets ''.
  memo: z.preprocess((v) => v ?? '', z.string().trim().max(255).default('')),
  // The label in the other languages (`{ en: 'High' }`); `label` is the default language's and the fallback.
  // A blank or missing translation is dropped (the form sends `{ en: '' }` or `{ en: undefined }`).
  labels: z.preprocess(
    withoutBlanks,
    // An object with a key per other language (not a record over an enum of keys: OpenAPI 3.0, which the
    // API document uses, cannot say which keys a record takes).
    z
      .strictObject(
        Object.fromEntries(
          LOCALES.filter((l) => l !== DEFAULT_LOCALE).map((l) => [l, z.string().trim().max(100).optional()]),
        ),
      )
      .optional(),
  ),
});
export type DictionaryEntry = z.output<typeof dictionaryEntrySchema>;

/** Entries of one dictionary; a value appears once (it is what records store). */
export const dictionaryDataSchema = z
  .array(dictionaryEntrySchema)
  .max(500)
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((entry, i) => {
      if (seen.has(entry.value))
        ctx.addIssue({ code: 'custom', path: [i, 'value'], message: 'validation.unique' });
      seen.add(entry.value);
    });
  });

/** Dictionaries every installation starts with (seeded by this resource's migration, editable later). */
export const gender = defineDictionary({
  slug: 'gender',
  name: { 'zh-CN': '性别', en: 'Gender' },
  entries: [
    { value: 'male', label: { 'zh-CN': '男', en: 'Male' } },
    { value: 'female', label: { 'zh-CN': '女', en: 'Female' } },
    { value: 'unknown', label: { 'zh-CN': '未知', en: 'Unknown' } },
  ],
});

/**
 * Dictionaries (`v1/dictionary/types`): a name, a unique slug and the entries. A field declared with
 * `dictionary('<slug>')` in any resource offers the enabled entries of that dictionary in forms and filters,
 * and shows (and exports) their labels. The entries are kept with the type as a JSON list: they are always
 * read and written together, and a dictionary is small.
 */
export const dictionaries = defineResource({
  name: 'dictionaries',
  table: 'dictionary_types',
  endpoint: 'v1/dictionary/types',
  permission: PERMISSION.settingsDictionaries,
  schema: z.object({
    name: field(z.string().trim().min(1).max(100), { search: 'like', sort: true, list: true }),
    slug: field(
      z
        .string()
        .trim()
        .min(1)
        .max(60)
        .regex(/^[a-z][a-z0-9_.-]*$/, { error: 'validation.invalid' }),
      { search: ['=', 'like', 'in'], sort: true, unique: true, list: true },
    ),
    data: field(dictionaryDataSchema.default([]), { list: false }),
  }),
  recordRepresentation: 'name',
  operations: ['list', 'read', 'create', 'update', 'delete', 'export'],
  dictionaries: [gender],
  // Configuration every screen reads, not data a department owns.
  scope: false,
});
