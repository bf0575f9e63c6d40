import { z } from 'zod';
import { ID_MAX, isIdString } from '../schemas/ids.ts';
import type { DictionaryDeclaration } from './default-dictionaries.ts';

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

/** Search conditions of the API contract's list query. */
export const CONDITIONS = ['=', 'like', 'in', 'between', '>=', '<=', '<>'] as const;
export type Condition = (typeof CONDITIONS)[number];

export type Relation =
  /** belongs-to: the field holds the id of one record of `resource` (a foreign key column). */
  | { kind: 'belongsTo'; resource: string }
  /**
   * many-to-many: the field holds ids, stored in a join table `<table>_<resource>` (or `through`) with the
   * columns `<singular table>_id` and `<field without _ids>_id`: `role_ids: references('roles')` on `staff`
   * lives in `staff_roles (staff_id, role_id)`.
   */
  | { kind: 'manyToMany'; resource: string; through?: string };

/** What the engine knows about one field beyond its zod type. Every key is optional. */
export interface FieldMeta {
  /** Searchable with these conditions; the first is the default when `searchFields` names none. */
  search?: Condition | readonly Condition[];
  /** Allowed in `orderBy`. */
  sort?: boolean;
  /** Shown as a list column (default: true for the first few readable fields). */
  list?: boolean;
  /** Offered as a list filter (default: true when searchable). */
  filter?: boolean;
  /** Accepted on create/update, never returned (passwords, secrets). Hashed when `hash` is set. */
  writeOnly?: boolean;
  /** Returned, never accepted from a client (server-computed values). */
  readOnly?: boolean;
  /** Unique across the table: a second record with the same value is a 409 naming the field. */
  unique?: boolean;
  relation?: Relation;
  /** Options come from the dictionary with this slug (enabled entries), in forms, filters, cells and CSV. */
  dictionary?: string;
  /** Input hint for generated forms. */
  input?: 'text' | 'textarea' | 'password' | 'email' | 'url' | 'phone' | 'color' | 'markdown';
  /** Masked in list cells (phone, email, id card), per the spec's masking helpers. */
  mask?: 'phone' | 'email' | 'idCard';
  /** How write-only values are stored: `argon2` hashes them (passwords). */
  hash?: 'argon2';
  /** Storage column of a write-only field when it differs from its name (`password` -> `password_hash`). */
  column?: string;
  /** Translation key of the label; default `resources.<resource>.fields.<field>`. */
  label?: string;
  /**
   * The field was renamed: its column used to be called this. `make:migration` writes `RENAME COLUMN` (the
   * data stays) instead of dropping the old column; the declaration may stay once the rename is applied.
   */
  renamedFrom?: string;
  /**
   * SQL expression filling the existing rows when this NOT NULL field is added (or becomes NOT NULL) without
   * a default, e.g. `"''"` or `'"name"'`; `make:migration` refuses such a change without it or a default.
   */
  backfill?: string;
  /** The dictionary this field's slug names, shipped in code: its migration seeds it (dictionary()). */
  dictionarySeed?: DictionaryDeclaration;
  /**
   * An amount of money in minor units (fen, cents), an integer column: shown and entered in major units in
   * the site's currency (settings `currency`; `decimals` fraction digits shown), written to CSV in major units
   * (`24.99`) and read back from them. Set by `money()`.
   */
  money?: true;
  /**
   * An uploaded file kept as an asset (`reference('assets')`): the form uploads it inline with progress
   * (`POST v1/resources/assets`, the size limit of settings `basic.upload_max_size`), cells and show pages
   * link to its download, and `image` also previews it. Set by `file()` / `image()`.
   */
  upload?: 'file' | 'image';
}

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
 * Child rows owned by a record (has-many): a resource whose `foreignKey` field references this one. They are
 * embedded with `include=<key>` and deleted with the parent (the foreign key cascades).
 */
export interface HasMany {
  /** The child resource's name (a registered resource). */
  resource: string;
  /** Field of the child resource (a `reference()` to this resource) holding this record's id. */
  foreignKey: string;
  /**
   * The children are written with the parent and edited in its form. Create and update bodies may carry
   * `<key>: [{ id?, ...child fields except foreignKey }]`, each item validated with the child's own write
   * schema (422 errors named `<key>.<index>.<field>`, a taken unique value a 409 named the same way). On
   * create every item is created; on update a given list replaces the set (items with an `id` update that
   * child, items without one are created, children left out are deleted) and an absent key leaves the
   * children alone. All of it runs in the parent's transaction with one audit row per child write, and the
   * create/update responses embed the children. The parent's `.create`/`.update` permission governs these
   * writes (the child's own permissions apply to its own routes). The generated create/edit form shows the
   * list as rows of the child's inputs, labelled `resources.<parent>.fields.<key>`. One level deep: a
   * child's own inline lists are not written through the parent.
   */
  inline?: boolean;
}

export interface ResourceOptions<S extends z.ZodObject> {
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
   * Where the resource sits in the settings menu (schemas/permissions.ts `settingsMenu`): an icon (a name of
   * src/layouts/menuIcons.tsx) and an order within its group (default 100; lower first). `false` keeps it out
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
   * at most 10,000 rows (server/engine/paging.ts). `false`: always count(*) exactly (small tables only).
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
}

/** A resource's place in the settings menu (see `ResourceOptions.menu`). */
export interface MenuPlace {
  /** @mui/icons-material name among those src/layouts/menuIcons.tsx bundles; a generic icon otherwise. */
  icon?: string;
  /** Position within the group (default 100); the built-in pages of a group come first. */
  order?: number;
}

/** The contract's routes of a collection, as `operations` names them. */
export const RESOURCE_OPERATIONS = [
  'list',
  'read',
  'create',
  'update',
  'delete',
  'export',
  'import',
] as const;
export type ResourceOperation = (typeof RESOURCE_OPERATIONS)[number];

/** Whether the engine serves `operation` for a resource. */
export function hasOperation(resource: Resource, operation: ResourceOperation): boolean {
  return (resource.options.operations ?? RESOURCE_OPERATIONS).includes(operation);
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

/** The conditions a field accepts (empty when it is not searchable). */
export function searchConditions(meta: FieldMeta): readonly Condition[] {
  if (!meta.search) return [];
  return typeof meta.search === 'string' ? [meta.search] : meta.search;
}
