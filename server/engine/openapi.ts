import * as z from 'zod';
import { isSoftDelete, type Resource } from '../../resources/define.ts';
import { envelope, NULL_DATA, wireJson } from '../core/openapi.ts';
import type { ResourceHooksTable } from './hooks.ts';
import { includeNameOf } from './schema/fields.ts';
import { rawAnswer, unchecked, type DocumentedAnswer, type Unchecked } from '../core/route.ts';
import type { RawQuery } from './list/query.ts';
import { jobRecordSchema } from '../jobs/records.ts';
import { cursorPaginationSchema, paginationSchema } from '../../schemas/pagination.ts';
import { fieldsOf } from './schema/fields.ts';
import { inlineLists, itemDocSchema } from '../../resources/inline-lists.ts';
import { MAX_BULK_IDS } from './write/bulk.ts';
import { COUNT_CAP } from './list/paging.ts';
import { includeNames, qFields } from './list/query.ts';
import { recordSchema, writeSchemas } from '../../resources/write.ts';

type JsonSchema = Record<string, unknown>;

/**
 * Route `schema` objects for a resource's routes (the seven of the contract and the two bulk calls): they only document the API in the OpenAPI document
 * (`GET /api/docs`); zod does the validating inside the operations. Shapes come from the same zod schema.
 * Inline has-many lists (resources/inline-lists.ts) appear in the create/update bodies and in the records they answer.
 */
export function routeSchemas(
  resource: Resource,
  /** Where the children of inline has-many lists are found. */
  registry: readonly Resource[],
  /** The modules' hooks: the keys they add to answers (`answers`) are documented. */
  hooks: ResourceHooksTable = {},
): Record<
  | 'list'
  | 'create'
  | 'read'
  | 'update'
  | 'delete'
  | 'updateMany'
  | 'deleteMany'
  | 'export'
  | 'import'
  | 'exportJob'
  | 'exportDownload'
  | 'importJob'
  | 'trashList'
  | 'trashRestore'
  | 'trashPurge'
  | 'history'
  | 'restore'
  | 'presence',
  JsonSchema
> {
  const tags = [resource.name];
  const { record, created, createBody, updateBody, updateFields } = recordDocs(resource, registry, hooks);
  const listQuery = listQueryDoc(resource);
  const includeQuery = {
    type: 'object',
    properties: { include: listQuery.properties.include },
  };
  const pascal = schemaStem(resource);
  const secured = (summary: string, permission: string, extra: JsonSchema) => ({
    tags,
    summary,
    description: `Needs the permission \`${permission}\`.`,
    ...extra,
  });
  const p = resource.permission;
  const docs = {
    list: secured(`List ${resource.name}`, p, {
      operationId: `list${pascal}`,
      querystring: listQuery,
      response: {
        200: envelope({
          type: 'object',
          required: ['data', 'meta'],
          properties: {
            data: { type: 'array', items: record },
            meta: {
              type: 'object',
              required: ['pagination'],
              properties: { pagination: paginationDoc() },
            },
          },
        }),
      },
    }),
    create: secured(`Create a ${resource.name} record`, `${p}.create`, {
      operationId: `create${pascal}`,
      'x-errors': [409],
      querystring: includeQuery,
      body: createBody,
      response: { 201: envelope(created) },
    }),
    read: secured(`Read a ${resource.name} record`, p, {
      operationId: `read${pascal}`,
      params: idParam(),
      querystring: includeQuery,
      response: { 200: envelope(record) },
    }),
    update: secured(`Update a ${resource.name} record (partial)`, `${p}.update`, {
      operationId: `update${pascal}`,
      description: `Needs the permission \`${p}.update\`. ${VERSION_NOTE}`,
      'x-errors': [409],
      params: idParam(),
      querystring: includeQuery,
      headers: {
        type: 'object',
        properties: {
          'if-match': {
            type: 'string',
            description:
              'The version written over, as `"<version>"` (the body\'s `version` wins when both are given)',
          },
        },
      },
      body: updateBody,
      response: { 200: envelope(record), 409: staleVersion(record) },
    }),
    delete: secured(`Delete a ${resource.name} record`, `${p}.delete`, {
      operationId: `delete${pascal}`,
      description: isSoftDelete(resource)
        ? `Needs the permission \`${p}.delete\`. Moves the record to the trash (\`${resource.endpoint}/trash\`), where it keeps its unique values. 409 while other records still refer to it (\`errors.holders\` is how many).`
        : `Needs the permission \`${p}.delete\`. 409 while other records still refer to it.`,
      'x-errors': [409],
      params: idParam(),
      querystring: {
        type: 'object',
        properties: {
          detach: {
            type: 'string',
            enum: ['0', '1'],
            description:
              'Roles only: `1` removes the role from the staff holding it (each change audited) and deletes it',
          },
        },
      },
      response: { 200: envelope(NULL_DATA) },
    }),
    trashList: secured(`List the trash of ${resource.name}`, `${p}.delete`, {
      operationId: `listTrash${pascal}`,
      description: `Needs the permission \`${p}.delete\`. The deleted records (each with \`deleted_at\`), with the list query of the list; purged after the \`basic\` setting \`trash_retention_days\`.`,
      querystring: listQuery,
      response: {
        200: envelope({
          type: 'object',
          properties: {
            data: { type: 'array', items: trashedRecord(record) },
            meta: { type: 'object', properties: { pagination: paginationDoc() } },
          },
        }),
      },
    }),
    trashRestore: secured(`Restore a ${resource.name} record from the trash`, `${p}.delete`, {
      operationId: `restoreTrash${pascal}`,
      description: `Needs the permission \`${p}.delete\`. The record back as it was (fields, links, inline children). 409 while it refers to a record still in the trash.`,
      'x-errors': [409],
      params: idParam(),
      response: { 200: envelope(record) },
    }),
    trashPurge: secured(`Delete a ${resource.name} record from the trash for good`, `${p}.delete`, {
      operationId: `purgeTrash${pascal}`,
      description: `Needs the permission \`${p}.delete\`. 409 while other (trashed) records still refer to it.`,
      'x-errors': [409],
      params: idParam(),
      response: { 200: envelope(NULL_DATA) },
    }),
    updateMany: secured(`Update many ${resource.name} records (bulk, partial)`, `${p}.update`, {
      operationId: `updateMany${pascal}`,
      'x-errors': [409],
      querystring: bulkQuery(),
      body: updateFields,
      response: { 200: withOperation(idList()), 404: notFound() },
      description: `Needs the permission \`${p}.update\`. The body is applied to every listed record. ${BULK_NOTE}`,
    }),
    deleteMany: secured(`Delete many ${resource.name} records (bulk)`, `${p}.delete`, {
      operationId: `deleteMany${pascal}`,
      'x-errors': [409],
      querystring: bulkQuery(),
      response: { 200: withOperation(idList()), 404: notFound() },
      description: `Needs the permission \`${p}.delete\`. ${BULK_NOTE}`,
    }),
    export: secured(`Export ${resource.name} as CSV`, `${p}.export`, {
      operationId: `export${pascal}`,
      description: `Needs the permission \`${p}.export\`. The CSV (UTF-8 with BOM, labelled headers); when more rows match than CSV_JOB_ROWS and jobs run, 202 with a job to follow at export/{jobId}.`,
      response: {
        200: csvFile(),
        202: { description: 'A job to follow', content: { 'application/json': { schema: ticket() } } },
      },
      querystring: {
        type: 'object',
        properties: {
          ...Object.fromEntries(
            Object.entries(listQuery.properties).filter(([k]) => k !== 'page' && k !== 'size'),
          ),
          fields: { type: 'string', description: 'fields to export, joined by ,' },
          format: {
            type: 'string',
            enum: ['csv', 'xlsx'],
            default: 'csv',
            description: 'csv, or xlsx: the same columns as typed cells in one sheet',
          },
        },
      },
    }),
    exportJob: {
      tags,
      summary: 'A large export job of mine',
      operationId: `exportJob${pascal}`,
      description: `Needs the permission \`${p}.export\`; 404 for a job of someone else.`,
      params: jobParam,
      response: { 200: envelope(jobStatus) },
    },
    exportDownload: {
      tags,
      summary: 'The CSV of a completed export job',
      operationId: `exportDownload${pascal}`,
      description: `Needs the permission \`${p}.export\`; 404 until the job completed.`,
      params: jobParam,
      response: { 200: csvFile() },
    },
    importJob: {
      tags,
      summary: 'A large import job of mine',
      operationId: `importJob${pascal}`,
      description: `Needs the permission \`${p}.import\`; 404 for a job of someone else.`,
      params: jobParam,
      response: { 200: envelope(jobStatus) },
    },
    history: secured(`The versions of a ${resource.name} record`, p, {
      operationId: `history${pascal}`,
      description: `Needs the permission \`${p}\`. The record's versions from its audit rows, newest first; fields hidden from the caller are left out of \`changes\`. \`version\` is null for versions written before versions were kept.`,
      params: idParam(),
      querystring: {
        type: 'object',
        properties: {
          page: { type: 'integer', minimum: 1, default: 1 },
          size: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
        },
      },
      response: {
        200: envelope({
          type: 'object',
          properties: {
            data: { type: 'array', items: HISTORY_ENTRY },
            meta: { type: 'object', properties: { pagination: wireJson(paginationSchema) } },
          },
        }),
      },
    }),
    restore: secured(`Restore a version of a ${resource.name} record`, `${p}.update`, {
      operationId: `restore${pascal}`,
      description: `Needs the permission \`${p}.update\`. Writes the record's values as of \`version\` as a new version (audited as \`${resource.name}.restore\`); fields the caller may not write keep their current value. 422 naming \`version\` when the history has no such version.`,
      'x-errors': [409],
      params: idParam(),
      body: {
        type: 'object',
        required: ['version'],
        properties: { version: { type: 'integer', minimum: 1 } },
      },
      response: { 200: envelope(record) },
    }),
    presence: secured(`Say that I am editing a ${resource.name} record`, `${p}.update`, {
      operationId: `presence${pascal}`,
      description: `Needs the permission \`${p}.update\`. Raises a live \`presence\` event (GET /api/v1/events) for the others who may see the record: \`{ resource, id, state, user_id, name, ttl_seconds }\`. Repeat \`editing\` within \`ttl_seconds\` while the form is open; \`left\` when it closes.`,
      params: idParam(),
      body: {
        type: 'object',
        properties: { state: { type: 'string', enum: ['editing', 'left'], default: 'editing' } },
      },
      response: { 200: envelope(NULL_DATA) },
    }),
    import: secured(`Import ${resource.name} from CSV`, `${p}.import`, {
      operationId: `import${pascal}`,
      description: `Needs the permission \`${p}.import\`. All rows or none; a file of more rows than CSV_JOB_ROWS becomes a job (202, follow it at import/{jobId}).`,
      'x-errors': [409],
      consumes: ['multipart/form-data'],
      body: {
        type: 'object',
        required: ['file'],
        properties: {
          file: { type: 'string', format: 'binary', description: 'The CSV or .xlsx file (one part)' },
          mapping: {
            type: 'string',
            description:
              'JSON { "<column header>": "<field>" } renaming the file\'s columns ("" leaves a column out); a part before the file',
          },
        },
      },
      querystring: {
        type: 'object',
        properties: {
          dry_run: { type: 'string', enum: ['0', '1'] },
          upsert: { type: 'string', description: 'a unique field matching existing records' },
        },
      },
      response: {
        200: envelope({
          type: 'object',
          properties: {
            total: { type: 'integer' },
            valid: { type: 'integer' },
            created: { type: 'integer' },
            updated: { type: 'integer' },
            unchanged: { type: 'integer', description: 'rows matching a record they would not change' },
            errors: {
              type: 'array',
              items: {
                type: 'object',
                required: ['row', 'errors'],
                properties: {
                  row: { type: 'integer', description: 'the line of the file (the header is line 1)' },
                  errors: {
                    type: 'object',
                    description: 'column -> messages',
                    additionalProperties: { type: 'array', items: { type: 'string' } },
                  },
                },
              },
            },
            dry_run: { type: 'boolean', description: 'true when nothing was written (dry_run=1)' },
          },
          required: ['total', 'valid', 'created', 'updated', 'errors', 'dry_run'],
        }),
        202: ticket(),
      },
    }),
  };
  // A committed import answers `meta.operation_id` (undo.ts); a dry run does not.
  const answers = (docs.import as JsonSchema).response as Record<number, JsonSchema>;
  answers[200] = withOperation(answers[200]!, true);
  return docs;
}

/**
 * One of `routeSchemas` as the parts `route()` takes (core/route.ts). The query and the body are documented
 * here and left raw: the operations validate them after the access check, with the resource's labels, field
 * access and inline lists (operations.ts), as they do for the CLI and the jobs.
 */
export function routeDoc(doc: JsonSchema): RouteDocParts {
  const later = (doc as Partial<Pick<LazyDoc, typeof LATER>>)[LATER];
  if (later) {
    // Built with the OpenAPI document (its first request), not at registration: route() merges `document`
    // in then. The raw query and body need nothing of it at request time.
    const unknownQuery = unchecked<RawQuery | undefined>(undefined);
    return {
      tags: [],
      summary: '',
      query: unknownQuery,
      body: unchecked(undefined),
      responses: {},
      document: () => routeDoc(later()),
    };
  }
  const {
    tags,
    summary,
    description,
    operationId,
    'x-errors': errors,
    params: _documentedByRoute,
    querystring,
    body,
    response,
    ...rest
  } = doc;
  return {
    tags: tags as string[],
    summary: summary as string,
    description: description as string | undefined,
    operationId: operationId as string | undefined,
    errors: errors as number[] | undefined,
    query: unchecked<RawQuery | undefined>(querystring as JsonSchema | undefined),
    body: unchecked(body as JsonSchema | undefined),
    responses: Object.fromEntries(
      Object.entries(response as Record<string, JsonSchema>).map(([status, answer]) => [
        Number(status),
        rawAnswer(answer),
      ]),
    ),
    openapi: rest,
  };
}

/** What `routeDoc` gives `route()` (core/route.ts RouteSpec's documenting parts). */
interface RouteDocParts {
  tags: string[];
  summary: string;
  description?: string;
  operationId?: string;
  errors?: number[];
  query: Unchecked<RawQuery | undefined>;
  body: Unchecked<unknown>;
  responses: Record<number, DocumentedAnswer>;
  openapi?: JsonSchema;
  document?: () => Omit<RouteDocParts, 'document'>;
}

const LATER = Symbol('route document built later');
/** A route document not built yet (`lazyDoc`). */
export type LazyDoc = JsonSchema & { readonly [LATER]: () => JsonSchema };

/** A route document `routeDoc` builds only when the OpenAPI document is built. Example: `routeDoc(lazyDoc(() => docs().row))`. */
export function lazyDoc(build: () => JsonSchema): LazyDoc {
  return { [LATER]: build } as LazyDoc;
}

/**
 * `routeSchemas` built on first use (issue 37 item 3: they were built for every resource at every start,
 * though only `GET /api/docs` reads them): each entry is a `lazyDoc` of the whole set, built once.
 * `built()` gives the set itself (the row actions' documents take parts of it).
 */
export function lazyRouteSchemas(
  ...args: Parameters<typeof routeSchemas>
): Record<keyof ReturnType<typeof routeSchemas>, LazyDoc> & { built: () => ReturnType<typeof routeSchemas> } {
  let docs: ReturnType<typeof routeSchemas> | undefined;
  const built = () => (docs ??= routeSchemas(...args));
  const keys = [
    'list',
    'create',
    'read',
    'update',
    'delete',
    'updateMany',
    'deleteMany',
    'export',
    'import',
    'exportJob',
    'exportDownload',
    'importJob',
    'trashList',
    'trashRestore',
    'trashPurge',
    'history',
    'restore',
    'presence',
  ] as const;
  return Object.assign(Object.fromEntries(keys.map((key) => [key, lazyDoc(() => built()[key])])), {
    built,
  }) as unknown as Record<(typeof keys)[number], LazyDoc> & { built: typeof built };
}

/** The path parameters of the engine's routes (core/http.ts has already turned a non-id `:id` into a 404). */
export const idParams = z.object({ id: z.string().regex(/^\d+$/) });
export const jobParams = z.object({ jobId: z.string() });

const HISTORY_ENTRY: JsonSchema = {
  type: 'object',
  required: ['version', 'action', 'at', 'actor', 'changes'],
  properties: {
    version: { type: 'integer', nullable: true },
    action: { type: 'string', enum: ['create', 'update', 'restore'] },
    at: { type: 'string', format: 'date-time' },
    actor: {
      type: 'object',
      nullable: true,
      properties: { id: { type: 'string' }, username: { type: 'string' }, name: { type: 'string' } },
    },
    changes: {
      type: 'object',
      description: 'field -> [old, new]; an inline list -> its items before and after',
      additionalProperties: { type: 'array', items: {}, minItems: 2, maxItems: 2 },
    },
  },
};

const VERSION_NOTE =
  'With `version` in the body or `If-Match: "<version>"` the change is written only over that version: when the record has another (someone saved since), the answer is 409 with `errors.version` and `data` = the current record, and nothing is written. Without a version the change is applied. Every write bumps `version` by 1.';

/** A stale version's 409: the error envelope whose `data` is the current record. */
function staleVersion(record: JsonSchema): JsonSchema {
  return {
    description:
      'Conflict: a unique value is taken, or (with `errors.version`) the version is stale and `data` is the current record',
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: {
      code: { type: 'integer', example: 409 },
      message: { type: 'string' },
      data: { ...record, nullable: true },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
  };
}

/** `staff_members` -> `StaffMembers`: the stem of a resource's named schemas. */
export function schemaStem(resource: Resource): string {
  return resource.name.replace(/(^|_)([a-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase());
}

/**
 * A reference to a named schema of components.schemas (core/openapi.ts `finish` turns it into a `$ref`, and
 * puts `definition` there when no route named it: a resource reached only through an include).
 */
function named(name: string, definition: JsonSchema, nullable = false): JsonSchema {
  return { 'x-ref': name, 'x-def': definition, ...(nullable ? { 'x-nullable': true } : {}) };
}

/**
 * The named schemas of a resource: `<Name>Record` (every key a read answers: the columns, the keys its
 * module's hooks add, and the records `include=` embeds, optional), `<Name>Created` when a create answers
 * more, `<Name>Create` and `<Name>Update` (the bodies, closed: unknown keys are a 422).
 */
function recordDocs(resource: Resource, registry: readonly Resource[], hooks: ResourceHooksTable) {
  const stem = schemaStem(resource);
  const { create, update } = writeSchemas(resource);
  const lists = inlineLists(resource, registry);
  const listBody = (description: string) =>
    Object.fromEntries(
      lists.map((list) => [
        list.key,
        {
          type: 'array',
          maxItems: list.maxItems,
          description: `${list.child.name} records of this ${resource.name} record (${list.foreignKey} is set by the server). ${description}`,
          items: toJson(itemDocSchema(list), 'input'),
        },
      ]),
    );
  const withLists = (body: JsonSchema, more: JsonSchema): JsonSchema => ({
    ...body,
    properties: { ...(body.properties as JsonSchema), ...more },
  });
  const answers = Object.hasOwn(hooks, resource.name) ? (hooks[resource.name]!.answers ?? {}) : {};
  const bare = (r: Resource) => {
    const own = Object.hasOwn(hooks, r.name) ? (hooks[r.name]!.answers?.read ?? {}) : {};
    return withComputed(r, wireJson(recordSchema(r).extend(own)));
  };
  const base = bare(resource);
  const embedded = embeddedDocs(resource, registry, bare);
  const inline = Object.fromEntries(
    lists.map((list) => [list.key, { type: 'array', items: bare(list.child) }]),
  );
  const recordBody = withLists(
    {
      ...base,
      description:
        `A ${resource.name} record. Keys of fields the caller's field access hides are left out; ` +
        '`include=` adds the embedded records named below.',
    },
    { ...inline, ...embedded },
  );
  const record = { ...recordBody, 'x-name': `${stem}Record` };
  const created = answers.create
    ? {
        ...recordBody,
        'x-name': `${stem}Created`,
        description: `The ${resource.name} record a create answers, with what only the create tells.`,
        properties: {
          ...(recordBody.properties as JsonSchema),
          ...((wireJson(z.object(answers.create)) as { properties: JsonSchema }).properties ?? {}),
        },
        required: [
          ...((recordBody.required as string[] | undefined) ?? []),
          ...Object.keys(answers.create),
        ].filter((k, i, all) => all.indexOf(k) === i),
      }
    : record;
  const updateFields = withNumericBooleans(resource, toJson(update, 'input'));
  return {
    record,
    created,
    createBody: {
      ...withLists(
        withNumericBooleans(resource, toJson(create, 'input')),
        listBody('Every item is created.'),
      ),
      'x-name': `${stem}Create`,
    },
    /** The bulk update's body: the fields only, no inline lists. */
    updateFields,
    updateBody: {
      ...withLists(
        {
          ...updateFields,
          properties: {
            ...(updateFields.properties as JsonSchema),
            version: {
              type: 'integer',
              minimum: 1,
              description: 'The version this change is written over; a stale one is a 409 (see If-Match)',
            },
          },
        },
        listBody(
          'When given, the list replaces the set: items with an id update that child, items without one are created, children left out are deleted. Left out: the children stay as they are.',
        ),
      ),
      'x-name': `${stem}Update`,
    },
  };
}

/** The records `include=<name>` embeds, each optional: a belongs-to (null when none), many-to-many, has-many. */
function embeddedDocs(
  resource: Resource,
  registry: readonly Resource[],
  bare: (r: Resource) => JsonSchema,
): JsonSchema {
  const find = (name: string) => registry.find((r) => r.name === name);
  const out: JsonSchema = {};
  for (const f of fieldsOf(resource)) {
    if (f.kind !== 'reference' && f.kind !== 'references') continue;
    const target = find(f.meta.relation!.resource);
    if (!target) continue;
    const ref = named(`${schemaStem(target)}Record`, bare(target), f.kind === 'reference');
    out[includeNameOf(f)] =
      f.kind === 'reference'
        ? { ...ref, description: `with include=${includeNameOf(f)}: the ${f.name} record (null when none)` }
        : { type: 'array', description: `with include=${includeNameOf(f)}`, items: ref };
  }
  for (const [name, spec] of Object.entries(resource.options.hasMany ?? {})) {
    const child = find(spec.resource);
    if (!child) continue;
    out[name] = {
      type: 'array',
      description: `with include=${name}: the ${child.name} records whose ${spec.foreignKey} is this record`,
      items: named(`${schemaStem(child)}Record`, bare(child)),
    };
  }
  return out;
}

/** Computed fields (issue 35) are answered, never taken: `readOnly` in the record's schema. */
function withComputed(resource: Resource, record: JsonSchema): JsonSchema {
  const computed = fieldsOf(resource).filter((f) => f.meta.computed);
  if (!computed.length) return record;
  const props = { ...(record.properties as Record<string, JsonSchema>) };
  for (const f of computed)
    if (props[f.name])
      props[f.name] = {
        ...props[f.name],
        readOnly: true,
        description: 'computed from the record; read-only',
      };
  return { ...record, properties: props };
}

/** Boolean fields also take 1 and 0 (and "1"/"0") in a body, as the contract allows. */
function withNumericBooleans(resource: Resource, body: JsonSchema): JsonSchema {
  const props = { ...(body.properties as Record<string, JsonSchema>) };
  for (const f of fieldsOf(resource)) {
    const prop = props[f.name];
    if (f.kind !== 'boolean' || !prop || prop.type !== 'boolean') continue;
    const { type: _type, nullable, ...rest } = prop;
    props[f.name] = {
      ...rest,
      description: 'true/false, or 1/0',
      anyOf: [
        { type: 'boolean' },
        { type: 'integer', enum: [0, 1] },
        ...(nullable ? [{ type: 'object', nullable: true, enum: [null] }] : []),
      ],
    };
  }
  return { ...body, properties: props };
}

/** The list call's query: paging, cursor, search pairs, q, order and include, named per resource. */
export function listQueryDoc(resource: Resource) {
  const searchable = fieldsOf(resource)
    .filter((f) => f.conditions.length)
    .map((f) => `${f.name} (${f.conditions.join(' ')})`);
  const sortable = fieldsOf(resource)
    .filter((f) => f.meta.sort)
    .map((f) => f.name);
  // Related fields (issue 32 item 5): `<relation>.<field>` of a reference's sortBy/searchBy.
  const relatedOf = (key: 'sortBy' | 'searchBy') =>
    fieldsOf(resource).flatMap((f) =>
      f.kind === 'reference' ? (f.meta[key] ?? []).map((n) => `${includeNameOf(f)}.${n}`) : [],
    );
  const relatedSearch = relatedOf('searchBy');
  const relatedSort = relatedOf('sortBy');
  return {
    type: 'object',
    properties: {
      page: {
        type: 'integer',
        minimum: 1,
        default: 1,
        description:
          '1-based page number (ignored with cursor). Pages near the end cost what the first does.',
      },
      size: { type: 'integer', minimum: 1, maximum: 1000, default: 15 },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        description:
          "l5-repository's name for size (the page size); giving both with different values is a 422",
      },
      cursor: {
        type: 'string',
        pattern: '^[\\w-]+$',
        description:
          'meta.pagination.next_cursor of the previous page: the following page of the same query (same ' +
          'search, order and size), read without an OFFSET walk and without counting again. A cursor of ' +
          'another query, or not one the server gave, is a 422 on cursor.',
      },
      search: {
        type: 'string',
        description:
          `field:value pairs joined by ;. Inside a value write a literal ; : , as \\; \\: \\, and a backslash ` +
          `as \\\\ (before URL encoding). A bare value (no field:) is looked for in the searchFields named, ` +
          `else in every like field. A field named twice is a 422 (use in). ` +
          `Searchable: id (= in <> between >= <=), ${searchable.join(', ')}` +
          (relatedSearch.length
            ? `. Related (the target field's conditions; rows of the target the caller cannot see match ` +
              `nothing): ${relatedSearch.join(', ')}`
            : ''),
      },
      q: {
        type: 'string',
        description: `text looked for (case-insensitive, contains) in every like-searchable field: ${
          qFields(resource)
            .map((f) => f.name)
            .join(', ') || 'none (q is refused)'
        }; OR among them, AND with the search pairs`,
      },
      searchFields: {
        type: 'string',
        description:
          'field:condition pairs joined by ; (=, like, in, between, >=, <=, <>): the condition of each search ' +
          'pair, and the fields (with their conditions) a bare search value is looked for in (OR among them)',
      },
      searchJoin: { type: 'string', enum: ['and', 'or'] },
      orderBy: {
        type: 'string',
        description:
          `fields joined by ;. Sortable: id, created_at, ${sortable.join(', ')}` +
          (relatedSort.length
            ? `. Related (NULL when the target row is not visible to the caller): ${relatedSort.join(', ')}`
            : '') +
          '. Text sorts ignore case and, under Accept-Language zh-CN, follow pinyin where the database ' +
          "has ICU's Chinese rules; the id breaks ties.",
      },
      sortedBy: { type: 'string', description: 'asc or desc per orderBy field, joined by ;' },
      include: {
        type: 'string',
        description: `relations joined by ,: ${includeNames(resource).join(', ') || 'none'}`,
      },
    },
  };
}

/** meta.pagination of a list answer. */
function paginationDoc(): JsonSchema {
  return wireJson(
    cursorPaginationSchema.extend({
      next_cursor: cursorPaginationSchema.shape.next_cursor.describe(
        'pass as cursor= for the following page; null on the last page',
      ),
      total_is_estimate: paginationSchema.shape.total_is_estimate.describe(
        "present (true) when total is the planner's row estimate (unfiltered list of a big table)",
      ),
      total_is_capped: paginationSchema.shape.total_is_capped.describe(
        `present (true) when the count stopped at ${COUNT_CAP}: total is the cap (shown as "${COUNT_CAP}+"); ` +
          'for a like term of 1-2 characters (not counted), total is the rows up to this page and more follow',
      ),
    }),
  );
}

const csvFile = () => ({
  description: 'The CSV file (UTF-8 with BOM), or the .xlsx workbook for format=xlsx',
  content: {
    'text/csv': { schema: { type: 'string' } },
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
      schema: { type: 'string', format: 'binary' },
    },
  },
});
const idParam = () => ({
  type: 'object',
  properties: { id: { type: 'string', pattern: '^\\d+$' } },
  required: ['id'],
});
const bulkQuery = () => ({
  type: 'object',
  properties: {
    ids: {
      type: 'string',
      pattern: '^\\d+(,\\d+)*$',
      description: `record ids joined by , (at most ${MAX_BULK_IDS})`,
    },
  },
  required: ['ids'],
});
const BULK_NOTE =
  'One transaction, all or nothing: every record goes through the same rules as the single call and gets ' +
  'its own audit row. A missing id makes it a 404 whose errors.ids lists the missing ids; nothing changes. ' +
  '`data` is the list of ids changed; `meta.operation_id` undoes the call (`POST /api/v1/operations/{id}/undo`).';
const idList = () => envelope({ type: 'array', items: { type: 'string' } });
/**
 * An answer with `meta.operation_id` beside `data` (a bulk call, a committed import): the operation that
 * `POST v1/operations/<id>/undo` takes (undo.ts).
 */
function withOperation(answer: JsonSchema, isOptional = false): JsonSchema {
  const properties = (answer.properties ?? {}) as Record<string, JsonSchema>;
  const meta = named('OperationMeta', {
    type: 'object',
    required: ['operation_id'],
    properties: {
      operation_id: {
        type: 'string',
        pattern: '^\\d+$',
        description: 'the operation, to undo with POST /api/v1/operations/{id}/undo',
      },
    },
  });
  return {
    ...answer,
    properties: { ...properties, meta },
    required: [...((answer.required as string[] | undefined) ?? []), ...(isOptional ? [] : ['meta'])],
  };
}
/** The common 404 envelope of the bulk calls, with the missing ids named. */
const notFound = () => ({
  description: 'Some ids are missing: nothing changed',
  type: 'object',
  properties: {
    code: { type: 'integer', example: 404 },
    message: { type: 'string' },
    data: { type: 'null' },
    errors: { type: 'object', properties: { ids: { type: 'array', items: { type: 'string' } } } },
  },
  required: ['code', 'message', 'data'],
});
/** The 202 answer of an export or import that became a job. */
const ticket = () =>
  envelope({
    type: 'object',
    required: ['job_id', 'queue', 'state'],
    properties: {
      job_id: { type: 'string' },
      queue: { type: 'string' },
      state: { type: 'string', enum: ['queued'] },
    },
  });
const jobParam = { type: 'object', properties: { jobId: { type: 'string' } }, required: ['jobId'] };
/** A CSV job as its requester sees it (csv-job-routes.ts: the job without its data). */
const jobStatus = wireJson(jobRecordSchema.omit({ data: true }));

function toJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** A record as the trash lists it: with the time it was deleted. */
function trashedRecord(record: JsonSchema): JsonSchema {
  const properties = (record.properties ?? {}) as Record<string, JsonSchema>;
  return {
    ...record,
    properties: { ...properties, deleted_at: { type: 'string', format: 'date-time' } },
  };
}
