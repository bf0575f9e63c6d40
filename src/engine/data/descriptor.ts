import type { Resource } from '../../../resources/define.ts';
import { metaDeep } from '../../../resources/define.ts';
import {
  defaultSortOf,
  describeField,
  maxPageSizeOf,
  searchableFields,
  sortableFields,
  type FieldKind as ModelKind,
} from '../../../resources/fields.ts';
import { isFlag } from '../../../resources/flag.ts';
import type {
  ActionInputField,
  Condition,
  FieldMeta,
  PlainResourceOptions,
  ResourceHeader,
} from '../../../resources/meta.ts';
import type * as z from 'zod';
import { enumValues, fieldKind, isRequired, type FieldKind } from '../fields/fieldKind.ts';

/**
 * One field of a resource as the screens see it: no zod schema, only what the schema says (plain data).
 * The list, show, filter, menu and title code read these; only forms (validation, payloads, defaults)
 * read the zod schema itself.
 */
export interface EngineField {
  name: string;
  /** Declared metadata (found through wrappers when `field()` was applied before `.optional()`). */
  meta: FieldMeta;
  /** The screen kind (fieldKind.ts). */
  kind: FieldKind;
  /** Translation key of a declared label; unset means react-admin's `resources.<name>.fields.<field>`. */
  label?: string;
  /** The options of an enum (or literal) field, else empty. */
  enumValues: string[];
  /** The schema rejects a missing value. */
  required: boolean;
  /** A 0/1 integer shown as a yes/no switch (resources/flag.ts). */
  flag: boolean;
}

/**
 * A resource described for the browser: plain, JSON-serialisable data computed from its zod declaration by
 * the one shared field model (resources/fields.ts), so what the screens offer (columns, filters, sorts, the
 * page size) is exactly what the server accepts. The build computes the registry's descriptors in Node
 * (scripts/lib/resourceDescriptors.ts, `virtual:resource-descriptors`), so opening a list loads no zod;
 * tests describe their own resources at run time with the same function.
 */
export interface ResourceDescriptor extends ResourceHeader {
  options: PlainResourceOptions;
  fields: EngineField[];
  /** Field names allowed in `orderBy` (fields.ts sortableFields). */
  sortable: string[];
  /** The default list order (fields.ts defaultSortOf). */
  defaultSort: { field: string; order: 'asc' | 'desc' };
  /** The largest page the list answers (fields.ts maxPageSizeOf). */
  maxPageSize: number;
  /** Searchable fields (system columns first) with their model kind and conditions (fields.ts searchableFields). */
  searchable: { name: string; kind: ModelKind; conditions: Condition[] }[];
}

/** Option keys that hold zod schemas or only concern the server (migrations, seeds). */
const SERVER_ONLY_OPTIONS = new Set(['schema', 'dictionaries', 'indexes']);

/** Describes a declared resource (cached per resource). */
export function describeResource(resource: Resource): ResourceDescriptor {
  let described = cache.get(resource);
  if (!described) {
    described = describe(resource);
    cache.set(resource, described);
  }
  return described;
}
const cache = new WeakMap<Resource, ResourceDescriptor>();

function describe(resource: Resource): ResourceDescriptor {
  const options = Object.fromEntries(
    Object.entries(resource.options).filter(([key]) => !SERVER_ONLY_OPTIONS.has(key)),
  ) as unknown as PlainResourceOptions;
  // Row actions without their handler and input schema (server side): what a button needs.
  if (resource.options.actions)
    options.actions = Object.fromEntries(
      Object.entries(resource.options.actions).map(([key, { label, icon, confirm, bulk, input }]) => [
        key,
        {
          ...(label ? { label } : {}),
          ...(icon ? { icon } : {}),
          ...(confirm ? { confirm } : {}),
          ...(bulk ? { bulk } : {}),
          ...(input ? { hasInput: true, inputFields: inputFieldsOf(input) } : {}),
        },
      ]),
    );
  return plain({
    name: resource.name,
    endpoint: resource.endpoint,
    permission: resource.permission,
    table: resource.table,
    timestamps: resource.timestamps,
    module: resource.module,
    options,
    fields: resource.fields.map(({ name, schema, meta: declared }) => {
      const meta = Object.keys(declared).length ? declared : metaDeep(schema);
      return {
        name,
        meta: withoutSeed(meta),
        kind: fieldKind(schema, meta),
        ...(meta.label ? { label: meta.label } : {}),
        enumValues: enumValues(schema),
        required: isRequired(schema),
        flag: isFlag(describeField(name, schema, meta)),
      };
    }),
    sortable: [...sortableFields(resource)],
    defaultSort: defaultSortOf(resource),
    maxPageSize: maxPageSizeOf(resource),
    searchable: [...searchableFields(resource)].map(([name, f]) => ({
      name,
      kind: f.kind,
      conditions: [...f.conditions],
    })),
  });
}

/** Input kinds the action dialog has an input for; anything else is typed as text. */
const INPUT_KINDS: Partial<Record<ModelKind, ActionInputField['kind']>> = {
  int: 'int',
  number: 'number',
  boolean: 'boolean',
  enum: 'enum',
  date: 'date',
  text: 'text',
};

/** The fields of an action's input (a zod object) for its dialog's form (issue 35). */
function inputFieldsOf(input: z.ZodType): ActionInputField[] {
  const shape = (input as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};
  return Object.entries(shape).map(([name, schema]) => {
    const info = describeField(name, schema, metaDeep(schema));
    return {
      name,
      kind: INPUT_KINDS[info.kind] ?? 'string',
      required: !info.isOptional,
      ...(info.enumValues.length ? { enumValues: info.enumValues } : {}),
    };
  });
}

/** A dictionary's seed (its entries) is for migrations; the screens load the dictionary from the API. */
function withoutSeed(meta: FieldMeta): FieldMeta {
  if (!meta.dictionarySeed) return meta;
  const { dictionarySeed: _seed, ...rest } = meta;
  return rest;
}

/** The value as JSON would carry it (no undefined keys, fresh arrays), so build and run time compare equal. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
