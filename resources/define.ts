import * as z from 'zod';
import { ID_MAX, isIdString } from '../schemas/ids.ts';
import type { DictionaryDeclaration } from './default-dictionaries.ts';
import type {
  ComputedColumn,
  FieldMeta,
  HasMany,
  MenuPlace,
  PlainResourceOptions,
  ResourceOperation,
} from './meta.ts';

export {
  CONDITIONS,
  RESOURCE_OPERATIONS,
  hasOperation,
  searchConditions,
  type ComputedColumn,
  type Condition,
  type FieldMeta,
  type HasMany,
  type MenuPlace,
  type PlainResourceOptions,
  type Relation,
  type ResourceHeader,
  type ResourceOperation,
} from './meta.ts';

/**
 * The resource engine's declaration API. A resource is one zod object schema plus a little metadata; from it
 * the server derives the table (through a generated, committed migration), the REST routes, validation,
 * the search/sort allow-list, permissions, audit, CSV export/import and OpenAPI, and the client derives
 * its list/create/edit/show screens. Nothing about a field is declared twice.
 *
 * Example (a whole resource):
 * ```ts
 * export const articles = defineResource({
 *   name: 'articles',
 *   endpoint: 'v1/content/articles',
 *   permission: 'content.articles',
 *   schema: z.object({
 *     title: field(z.string().trim().min(1).max(200), { search: 'like', sort: true, list: true }),
 *     category: field(z.string(), { dictionary: 'article_category', search: '=', list: true }),
 *     author_id: reference('users', { search: '=' }),
 *     tag_ids: references('tags'),
 *     state: field(z.boolean().default(true), { search: '=', list: true }),
 *   }),
 *   recordRepresentation: 'title',
 * });
 * ```
 */

/** Field metadata lives in a zod registry, so a field is still a plain zod schema everywhere. */
export const fieldRegistry = z.registry<FieldMeta>();

/**
 * Attaches engine metadata to a field's zod schema and returns the same schema. Apply it last
 * (after `.optional()`, `.default()` ...), since those wrap the schema in a new one.
 */
export function field<S extends z.ZodType>(schema: S, meta: FieldMeta): S {
  fieldRegistry.add(schema, meta);
  return schema;
}

/**
 * Reads a field's metadata (empty when the field has none). Metadata attached before a wrapper
 * (`dictionary('x').optional()`) is found through optional/nullable/default wrappers; outer metadata wins.
 */
export function metaOf(schema: z.ZodType): FieldMeta {
  const own = fieldRegistry.get(schema) ?? {};
  const def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  const isWrapper = ['optional', 'nullable', 'default', 'prefault', 'readonly'].includes(def.type);
  return isWrapper && def.innerType ? { ...metaOf(def.innerType), ...own } : own;
}

/** Wrappers `metaDeep` looks through. */
const META_WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
]);

/**
 * A field's metadata, also when `field()` was applied before `.optional()` (the wrapper is a new schema, so
 * the registry only knows the inner one): the first metadata found through wrappers and pipes.
 */
export function metaDeep(schema: z.ZodType): FieldMeta {
  let current = schema;
  for (let depth = 0; depth < 20; depth += 1) {
    const meta = metaOf(current);
    if (Object.keys(meta).length) return meta;
    const def = (
      current as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } }
    )._zod.def;
    const next = META_WRAPPERS.has(def.type) ? def.innerType : def.type === 'pipe' ? def.in : undefined;
    if (!next) return {};
    current = next;
  }
  return {};
}

// Ids are a shared type of schemas/ (the layer below resources), re-exported for the field helpers' users.
export { ID_MAX, isIdString };

/**
 * A fresh id schema (digit string or positive integer, within bigint, as a string). Every helper builds its
 * own instance: metadata lives in a registry keyed by the schema object, so a shared instance would let the
 * second `reference()` overwrite the first one's relation.
 */
export function idSchema(): z.ZodType<string> {
  return z
    .union([z.string().regex(/^\d{1,19}$/), z.number().int().positive()])
    .transform(String)
    .refine(isIdString, { message: 'validation.invalid' });
}

/** belongs-to: `department_id: reference('departments')`. Optional and nullable unless `required`. */
export function reference(
  resource: string,
  meta: Omit<FieldMeta, 'relation'> & { required?: boolean } = {},
): z.ZodType<string | null | undefined> {
  const { required, ...rest } = meta;
  const schema = required ? idSchema() : idSchema().nullable().optional();
  return field(schema as z.ZodType<string | null | undefined>, {
    ...rest,
    relation: { kind: 'belongsTo', resource },
  });
}

/** many-to-many: `role_ids: references('roles')`, a list of ids kept in a join table. */
export function references(
  resource: string,
  meta: Omit<FieldMeta, 'relation'> & { through?: string } = {},
): z.ZodType<string[]> {
  const { through, ...rest } = meta;
  const schema = z.array(idSchema()).max(1000).default([]);
  return field(schema as unknown as z.ZodType<string[]>, {
    ...rest,
    relation: { kind: 'manyToMany', resource, ...(through ? { through } : {}) },
  });
}

/**
 * A field whose options are a dictionary's enabled entries: `gender: dictionary('gender')`, or
 * `category: dictionary(productCategory)` with a `defineDictionary(...)` declaration the resource's
 * migration seeds (resources/default-dictionaries.ts).
 */
export function dictionary(
  slug: string | DictionaryDeclaration,
  meta: Omit<FieldMeta, 'dictionary' | 'dictionarySeed'> = {},
): z.ZodString {
  const seed = typeof slug === 'string' ? {} : { dictionarySeed: slug };
  const name = typeof slug === 'string' ? slug : slug.slug;
  return field(z.string().trim().max(100), { ...meta, dictionary: name, ...seed });
}

/** The largest amount `money()` stores: an `integer` column of minor units (21,474,836.47 in major units). */
export const MONEY_MAX = 2147483647;

/**
 * An amount in minor units: `price: money({ sort: true, search: ['between', '>=', '<='] })`, not negative
 * unless `min` says so. The API takes and returns the integer (`2499`); screens and CSV use major units.
 */
export function money(meta: Omit<FieldMeta, 'money'> & { min?: number } = {}): z.ZodNumber {
  const { min = 0, ...rest } = meta;
  return field(z.int().min(Math.max(min, -MONEY_MAX)).max(MONEY_MAX), { ...rest, money: true });
}

/** A file kept as an asset: `manual_id: file()`; optional unless `required`. Stored as the asset's id. */
export function file(
  meta: Omit<FieldMeta, 'relation' | 'upload'> & { required?: boolean } = {},
): z.ZodType<string | null | undefined> {
  return reference('assets', { ...meta, upload: 'file' });
}

/** An image kept as an asset: `photo_id: image()`; previewed in forms, thumbnails in lists. */
export function image(
  meta: Omit<FieldMeta, 'relation' | 'upload'> & { required?: boolean } = {},
): z.ZodType<string | null | undefined> {
  return reference('assets', { ...meta, upload: 'image' });
}

/**
 * A read-only column computed from the row (issue 35): by an SQL expression over its own columns, sortable
 * and searchable when declared so, answered on list, read, include, export and events; or by a function of
 * the record (`value`), answered on list, read, include and events, never sorted, searched or exported.
 * Never written: a body naming it is a 422 like any read-only field's. Example:
 * `stock_value: computed(z.number(), { sql: (c) => `${c('price')} * ${c('stock')}`, sort: true })`,
 * `label: computed(z.string(), { value: (r) => `${String(r.name)} (${String(r.sku)})` })`.
 */
export function computed<S extends z.ZodType>(
  schema: S,
  meta: Omit<FieldMeta, 'computed' | 'readOnly' | 'writeOnly' | 'relation' | 'unique' | 'hash' | 'column'> &
    (
      | { sql: NonNullable<ComputedColumn['sql']>; value?: never }
      | { value: NonNullable<ComputedColumn['value']>; sql?: never; sort?: never; search?: never }
    ),
): S {
  const { sql, value, ...rest } = meta;
  return field(schema, {
    ...rest,
    readOnly: true,
    computed: sql ? { by: 'sql', sql } : { by: 'value', value },
  });
}

export interface ResourceOptions<S extends z.ZodObject> extends PlainResourceOptions {
  /** Table name, client resource name and locale key (`resources.<name>`). snake_case. */
  name: string;
  /** API path under /api, e.g. `v1/user/staff`. */
  endpoint: string;
  /**
   * Permission page name: reading needs it; writing needs `.create`, `.update`, `.delete`, `.export`, `.import`
   * (only the actions of the operations the resource has are grantable). Its prefix is the menu group:
   * `content.articles` sits in the group `content` (title `app.menu.content`), `system.users.staff` in the
   * built-in User group. A name without a dot is a page of its own at the top of the menu.
   */
  permission: string;
  /**
   * Where the resource sits in the settings menu (schemas/permissions.ts `settingsMenu`): an icon (any
   * @mui/icons-material component name: the build bundles the icons the menu names) and an order within its group (default 100; lower first). `false` keeps it out
   * of the menu (a child edited inline in its parent) while its permission stays grantable. The entry's
   * title is the resource's plural label, `resources.<name>.name_other`.
   */
  menu?: MenuPlace | false;
  /** The record's own fields. `id`, `created_at` and `updated_at` are added by the engine. */
  schema: S;
  /** Table name when it differs from `name`. */
  table?: string;
  /** Field shown when a record is referenced elsewhere (select options, breadcrumbs, delete confirmation). */
  recordRepresentation?: Extract<keyof S['shape'], string>;
  /** Default list order; `id desc` when unset. */
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /** Child collections embedded with `include=<key>`; with `inline: true` also written with the parent. */
  hasMany?: Record<string, HasMany>;
  /**
   * Default true: an unfiltered list of a big table reports PostgreSQL's row estimate, a filtered one counts
   * at most 10,000 rows (server/engine/list/paging.ts). `false`: always count(*) exactly (small tables only).
   */
  estimatedTotal?: boolean;
  /** Soft limits: the largest page, and the most rows an import accepts (defaults 1000 / 100000). */
  limits?: { maxPageSize?: number; maxImportRows?: number };
  /** Adds created_at / updated_at (default true). */
  timestamps?: boolean;
  /** Module this resource belongs to (modules can be disabled later); default `core`. */
  module?: string;
  /**
   * The routes the engine mounts (default: all): `['list', 'read']` for a read-only collection, `[]` for a
   * resource a module serves itself (the table, migration check, query language and screens still apply).
   */
  operations?: readonly ResourceOperation[];
  /**
   * Extra btree indexes `make:migration` creates for common filter combinations, each a list of columns
   * (`[['state', 'name', 'id']]` serves `state=` sorted by name). Sortable fields, `=`/`in`/range-searchable
   * fields and references get theirs without being listed here.
   */
  indexes?: readonly (readonly string[])[];
  /** Dictionaries shipped with the resource and seeded by its migration (besides its fields' own). */
  dictionaries?: readonly DictionaryDeclaration[];
  /**
   * The columns a role's data scope reads (server/engine/scope.ts). Default: `department` is a
   * `department_id` reference to departments when the resource has one, `owner` is `created_by` (the engine
   * records it on every record). `self` names a column holding the user a record *is* (staff's `user_id`):
   * a `self` role sees that record too. `false`: unscoped (roles, dictionaries: configuration, not data).
   */
  scope?: ScopeColumns | false;
  /**
   * Soft delete (default true): `DELETE` moves a record to the trash (a `deleted_at` column, null while
   * live) instead of removing the row; it leaves lists, reads, includes, exports and searches, keeps its
   * unique values, and comes back with `POST <path>/trash/<id>/restore` or goes for good with
   * `DELETE <path>/trash/<id>` or after the `basic` setting `trash_retention_days`. `false`: a delete
   * removes the row at once (logs, rows whose bytes live elsewhere).
   */
  softDelete?: boolean;
  /**
   * Row and bulk actions (docs/adding-a-resource.md, "Row and bulk actions"): `ship: { icon, confirm, input,
   * bulk, handler }` gives `POST <path>/<id>/actions/ship` (and `POST <path>/actions/ship?ids=1,2` with
   * `bulk: true`), the permission `<permission>.ship` and a button on the screens. Keys are snake_case and
   * differ from the operations' own action names (create, update, delete, export, import).
   */
  actions?: Record<string, ResourceAction>;
}

/**
 * One row action. Its label is `resources.<name>.actions.<key>` and its confirm question
 * `resources.<name>.actions.<key>_confirm` in each locale's catalogue (or the keys `label` / `confirm` name).
 * The engine runs `handler` inside the write's transaction, on a record the caller may see, after the version
 * check; the fields it returns are written through the update path (hooks, field access, audit row).
 */
export interface ResourceAction<I extends z.ZodType = z.ZodType> {
  /** Locale key of the button's label (default `resources.<name>.actions.<key>`). */
  label?: string;
  /** A @mui/icons-material component name. */
  icon?: string;
  /** Ask before running: `true` (`resources.<name>.actions.<key>_confirm`) or the question's locale key. */
  confirm?: boolean | string;
  /** What the caller gives (a zod object), validated on the server and in the dialog's form. */
  input?: I;
  /** Also offered in the list's bulk bar: `POST <path>/actions/<key>?ids=...`, all or nothing. */
  bulk?: boolean;
  /** Returns the fields to write on the record (none: only the version, `updated_*` and the audit row). */
  handler(
    args: ActionArgs<z.output<I>>,
  ): Promise<Record<string, unknown> | void> | Record<string, unknown> | void;
}

/**
 * What an action's handler gets: the record as the caller may see it, the validated input, the acting user,
 * and the transaction (`tx.query(sql, params)`, the same one the engine writes in). resources/ imports no
 * server code, so the database handle is typed by the one method a handler needs.
 */
export interface ActionArgs<I = unknown> {
  record: Record<string, unknown> & { id: string };
  input: I;
  userId: string;
  tx: {
    query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
  };
}

/** A resource's actions (none when it declares none). */
export function actionsOf(resource: Pick<Resource, 'options'>): Record<string, ResourceAction> {
  return resource.options.actions ?? {};
}

/** Declares an action with its input's type flowing into the handler: `ship: defineAction({ input, handler })`. */
export function defineAction<I extends z.ZodType = z.ZodObject<Record<string, never>>>(
  action: ResourceAction<I>,
): ResourceAction {
  return action as unknown as ResourceAction;
}

/** Whether a resource keeps deleted records in the trash (`ResourceOptions.softDelete`, default true). */
export function isSoftDelete(resource: Pick<Resource, 'options'>): boolean {
  return resource.options.softDelete ?? true;
}

/** The scope columns of a resource (`ResourceOptions.scope`); null: the resource has no such column. */
export interface ScopeColumns {
  /** A department id column (`'id'` for departments themselves: a department is scoped by its own id). */
  department?: string | null;
  /** The user id of whoever created the record. */
  owner?: string | null;
  /** The user id the record belongs to (staff: their own record). */
  self?: string | null;
}

/** A declared resource: the options with defaults applied. */
export interface Resource<S extends z.ZodObject = z.ZodObject> extends Required<
  Pick<ResourceOptions<S>, 'name' | 'endpoint' | 'permission' | 'schema' | 'table' | 'timestamps' | 'module'>
> {
  /** The declaration as given (loosely typed, so that every `Resource<S>` fits in a `Resource[]` registry). */
  options: ResourceOptions<z.ZodObject>;
  /** Field names with their metadata, in declaration order. */
  fields: { name: string; schema: z.ZodType; meta: FieldMeta }[];
}

/** The record type a resource returns: its schema's output (minus write-only fields) plus id and timestamps. */
export type RecordOf<R extends Resource> = z.output<R['schema']> & {
  id: string;
  created_at?: string;
  updated_at?: string;
};

/** Declares a resource. See the example at the top of this file. */
export function defineResource<S extends z.ZodObject>(options: ResourceOptions<S>): Resource<S> {
  if (!/^[a-z][a-z0-9_]*$/.test(options.name))
    throw new Error(`Resource name must be snake_case: ${options.name}`);
  if (!/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/.test(options.permission))
    throw new Error(`Permission must be dotted snake_case (content.articles): ${options.permission}`);
  for (const key of Object.keys(options.actions ?? {}))
    if (!/^[a-z][a-z0-9_]*$/.test(key) || ['create', 'update', 'delete', 'export', 'import'].includes(key))
      throw new Error(`Action name must be snake_case and not an operation's: ${options.name}.${key}`);
  const shape = options.schema.shape as Record<string, z.ZodType>;
  const fields = Object.entries(shape).map(([name, schema]) => {
    if (!/^[a-z][a-z0-9_]*$/.test(name))
      throw new Error(`Field name must be snake_case: ${options.name}.${name}`);
    return { name, schema, meta: metaOf(schema) };
  });
  return {
    name: options.name,
    endpoint: options.endpoint.replace(/^\/+|\/+$/g, ''),
    permission: options.permission,
    schema: options.schema,
    table: options.table ?? options.name,
    timestamps: options.timestamps ?? true,
    module: options.module ?? 'core',
    options: options as unknown as ResourceOptions<z.ZodObject>,
    fields,
  };
}
