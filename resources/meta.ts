import type { DictionaryDeclaration } from './default-dictionaries.ts';

/**
 * The parts of the resource declaration API that hold no zod schema: field metadata, search conditions,
 * relations, operations and the options a screen reads. Kept apart from define.ts (which builds zod
 * schemas) so the browser's list, menu and title code can use them without loading zod; define.ts
 * re-exports all of it, so declarations keep importing from there.
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
  /**
   * A reference's related fields (contract "Related fields"): fields of its target the list may sort by
   * (`orderBy=department.name`) and search (`search=department.name:销售&searchFields=department.name:like`),
   * with the target's field access and data scope applied (server/engine/list/related.ts). Each must be a
   * sortable (`sortBy`) or searchable (`searchBy`) field of the target.
   */
  sortBy?: readonly string[];
  searchBy?: readonly string[];
  /**
   * A read-only column the row does not store (issue 35): an SQL expression over the row's own columns
   * (`sql`, sortable and searchable when declared so) or a function of the record (`value`, shown only).
   * Set by `computed()` (define.ts), which also makes the field `readOnly`.
   */
  computed?: ComputedColumn;
}

/**
 * How a computed column gets its value. `sql` receives `column(name)`, which answers the qualified SQL of one
 * of the row's own readable columns (any other name throws when the resource is first queried): the
 * expression is the developer's, written in the resource file; a request never reaches it.
 */
export interface ComputedColumn {
  by: 'sql' | 'value';
  sql?: (column: (name: string) => string) => string;
  value?: (record: Readonly<Record<string, unknown>>) => unknown;
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

/** A resource's place in the settings menu (see `ResourceOptions.menu`). */
export interface MenuPlace {
  /** A @mui/icons-material component name (`Inventory2`), bundled because it is named; a generic icon if none. */
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
export function hasOperation(
  resource: { options: { operations?: readonly ResourceOperation[] } },
  operation: ResourceOperation,
): boolean {
  return (resource.options.operations ?? RESOURCE_OPERATIONS).includes(operation);
}

/** The conditions a field accepts (empty when it is not searchable). */
export function searchConditions(meta: FieldMeta): readonly Condition[] {
  if (!meta.search) return [];
  return typeof meta.search === 'string' ? [meta.search] : meta.search;
}

/**
 * A resource's options without its zod schema: what list, menu and title code reads (src/engine/data/descriptor.ts
 * carries them to the browser). `ResourceOptions` (define.ts) adds the schema and what only the server uses.
 */
export interface PlainResourceOptions {
  name: string;
  endpoint: string;
  permission: string;
  menu?: MenuPlace | false;
  table?: string;
  recordRepresentation?: string;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  hasMany?: Record<string, HasMany>;
  estimatedTotal?: boolean;
  limits?: { maxPageSize?: number; maxImportRows?: number };
  timestamps?: boolean;
  module?: string;
  operations?: readonly ResourceOperation[];
  /** Row actions as the screens see them (define.ts `actions`: the handler and input stay on the server side). */
  actions?: Readonly<Record<string, ActionHeader>>;
}

/** What the screens know of a row action (define.ts `ResourceAction` without its handler). */
export interface ActionHeader {
  label?: string;
  icon?: string;
  confirm?: boolean | string;
  bulk?: boolean;
  /** The action asks for input (its zod schema stays on the server side): the screens need a form for it. */
  hasInput?: boolean;
  /**
   * The input's fields as the dialog's form shows them (src/engine/data/descriptor.ts, from the input's zod
   * object): labelled `resources.<name>.actions.<key>_input.<field>`; the server validates (422 per field).
   */
  inputFields?: readonly ActionInputField[];
}

/** One field of an action's input form. */
export interface ActionInputField {
  name: string;
  kind: 'string' | 'text' | 'int' | 'number' | 'boolean' | 'enum' | 'date';
  required: boolean;
  enumValues?: readonly string[];
}

/**
 * What every resource value has, a declared one (define.ts `Resource`) or its description
 * (src/engine/data/descriptor.ts `ResourceDescriptor`): screens that only need the name, endpoint, permission
 * and options take this.
 */
export interface ResourceHeader {
  name: string;
  endpoint: string;
  permission: string;
  table: string;
  timestamps: boolean;
  module: string;
  options: PlainResourceOptions;
}
