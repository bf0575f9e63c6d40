import { z } from 'zod';
import type { Resource } from '../../resources/define.ts';
import { NULL_DATA, wireJson } from '../core/openapi.ts';
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
  | 'importJob',
  JsonSchema
> {
  const tags = [resource.name];
  const { record, createBody, updateBody, updateFields } = recordDocs(resource, registry);
  const listQuery = listQueryDoc(resource);
  const includeQuery = {
    type: 'object',
    properties: { include: listQuery.properties.include },
  };
  const pascal = resource.name.replace(/(^|_)([a-z0-9])/g, (_, _sep: string, c: string) => c.toUpperCase());
  const secured = (summary: string, permission: string, extra: JsonSchema) => ({
    tags,
    summary,
    description: `Needs the permission \`${permission}\`.`,
    ...extra,
  });
  const p = resource.permission;
  return {
    list: secured(`List ${resource.name}`, p, {
      operationId: `list${pascal}`,
      querystring: listQuery,
      response: {
        200: envelope({
          type: 'object',
          properties: {
            data: { type: 'array', items: record },
            meta: { type: 'object', properties: { pagination: paginationDoc() } },
          },
        }),
      },
    }),
    create: secured(`Create a ${resource.name} record`, `${p}.create`, {
      operationId: `create${pascal}`,
      'x-errors': [409],
      querystring: includeQuery,
      body: createBody,
      response: { 201: envelope(record) },
    }),
    read: secured(`Read a ${resource.name} record`, p, {
      operationId: `read${pascal}`,
      params: idParam(),
      querystring: includeQuery,
      response: { 200: envelope(record) },
    }),
    update: secured(`Update a ${resource.name} record (partial)`, `${p}.update`, {
      operationId: `update${pascal}`,
      'x-errors': [409],
      params: idParam(),
      querystring: includeQuery,
      body: updateBody,
      response: { 200: envelope(record) },
    }),
    delete: secured(`Delete a ${resource.name} record`, `${p}.delete`, {
      operationId: `delete${pascal}`,
      description: `Needs the permission \`${p}.delete\`. 409 while other records still refer to it.`,
      'x-errors': [409],
      params: idParam(),
      response: { 200: envelope(NULL_DATA) },
    }),
    updateMany: secured(`Update many ${resource.name} records (bulk, partial)`, `${p}.update`, {
      operationId: `updateMany${pascal}`,
      'x-errors': [409],
      querystring: bulkQuery(),
      body: updateFields,
      response: { 200: idList(), 404: notFound() },
      description: `Needs the permission \`${p}.update\`. The body is applied to every listed record. ${BULK_NOTE}`,
    }),
    deleteMany: secured(`Delete many ${resource.name} records (bulk)`, `${p}.delete`, {
      operationId: `deleteMany${pascal}`,
      'x-errors': [409],
      querystring: bulkQuery(),
      response: { 200: idList(), 404: notFound() },
      description: `Needs the permission \`${p}.delete\`. ${BULK_NOTE}`,
    }),
    export: secured(`Export ${resource.name} as CSV`, `${p}.export`, {
      operationId: `export${pascal}`,
      description: `Needs the permission \`${p}.export\`. The CSV (UTF-8 with BOM, labelled headers); when more rows match than CSV_JOB_ROWS and jobs run, 202 with a job to follow at export/{jobId}.`,
      response: {
        200: { description: 'The CSV file', type: 'string' },
        202: ticket(),
      },
      querystring: {
        type: 'object',
        properties: {
          ...Object.fromEntries(
            Object.entries(listQuery.properties).filter(([k]) => k !== 'page' && k !== 'size'),
          ),
          fields: { type: 'string', description: 'fields to export, joined by ,' },
        },
      },
      produces: ['text/csv'],
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
      produces: ['text/csv'],
      response: { 200: { description: 'The CSV file', type: 'string' } },
    },
    importJob: {
      tags,
      summary: 'A large import job of mine',
      operationId: `importJob${pascal}`,
      description: `Needs the permission \`${p}.import\`; 404 for a job of someone else.`,
      params: jobParam,
      response: { 200: envelope(jobStatus) },
    },
    import: secured(`Import ${resource.name} from CSV`, `${p}.import`, {
      operationId: `import${pascal}`,
      description: `Needs the permission \`${p}.import\`. All rows or none; a file of more rows than CSV_JOB_ROWS becomes a job (202, follow it at import/{jobId}).`,
      'x-errors': [409],
      consumes: ['multipart/form-data'],
      body: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary', description: 'The CSV file (one part)' } },
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
            errors: { type: 'array', items: { type: 'object' } },
          },
        }),
        202: ticket(),
      },
    }),
  };
}

/**
 * One of `routeSchemas` as the parts `route()` takes (core/route.ts). The query and the body are documented
 * here and left raw: the operations validate them after the access check, with the resource's labels, field
 * access and inline lists (operations.ts), as they do for the CLI and the jobs.
 */
export function routeDoc(doc: JsonSchema): {
  tags: string[];
  summary: string;
  description?: string;
  operationId?: string;
  errors?: number[];
  query: Unchecked<RawQuery | undefined>;
  body: Unchecked<unknown>;
  responses: Record<number, DocumentedAnswer>;
  openapi: JsonSchema;
} {
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

/** The path parameters of the engine's routes (core/http.ts has already turned a non-id `:id` into a 404). */
export const idParams = z.object({ id: z.string().regex(/^\d+$/) });
export const jobParams = z.object({ jobId: z.string() });

/** The record an answer carries (open to more keys) and the create/update bodies, inline lists included. */
function recordDocs(resource: Resource, registry: readonly Resource[]) {
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
  const withLists = (body: JsonSchema, lists: JsonSchema) => ({
    ...body,
    properties: { ...(body.properties as JsonSchema), ...lists },
  });
  // Open to more keys: a module's hooks may add computed ones (staff: `registered`, `invitation_url`), and
  // `include=` embeds relations.
  const { additionalProperties: _closed, ...recordJson } = toJson(recordSchema(resource), 'output');
  const record = withLists(
    {
      ...recordJson,
      description: `A ${resource.name} record (more keys with include=, or added by the module)`,
    },
    Object.fromEntries(
      lists.map((list) => [list.key, { type: 'array', items: toJson(recordSchema(list.child), 'output') }]),
    ),
  );
  const updateFields = toJson(update, 'input');
  return {
    record,
    createBody: withLists(toJson(create, 'input'), listBody('Every item is created.')),
    /** The bulk update's body: the fields only, no inline lists. */
    updateFields,
    updateBody: withLists(
      updateFields,
      listBody(
        'When given, the list replaces the set: items with an id update that child, items without one are created, children left out are deleted. Left out: the children stay as they are.',
      ),
    ),
  };
}

/** The list call's query: paging, cursor, search pairs, q, order and include, named per resource. */
function listQueryDoc(resource: Resource) {
  const searchable = fieldsOf(resource)
    .filter((f) => f.conditions.length)
    .map((f) => `${f.name} (${f.conditions.join(' ')})`);
  const sortable = fieldsOf(resource)
    .filter((f) => f.meta.sort)
    .map((f) => f.name);
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
          `as \\\\ (before URL encoding). Searchable: id, ${searchable.join(', ')}`,
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
        description: 'field:condition pairs joined by ; (=, like, in, between, >=, <=, <>)',
      },
      searchJoin: { type: 'string', enum: ['and', 'or'] },
      orderBy: {
        type: 'string',
        description: `fields joined by ;. Sortable: id, created_at, ${sortable.join(', ')}`,
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

const envelope = (data: JsonSchema) => ({
  type: 'object',
  properties: { code: { type: 'integer', example: 200 }, data },
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
  '`data` is the list of ids changed.';
const idList = () => envelope({ type: 'array', items: { type: 'string' } });
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
