import type { SwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import * as z from 'zod';
import { paginationSchema } from '../../schemas/pagination.ts';
import { MAX_JSON_DEPTH, XSRF_COOKIE, XSRF_HEADER } from './http.ts';

type JsonSchema = Record<string, unknown>;

/**
 * The OpenAPI document's shared parts (`GET /api/docs`): the security schemes, the error envelope, every
 * operation's operationId and error responses. Each route declares its own parameters, body and answers
 * once with `route()` (core/route.ts), which turns its zod schemas into its `schema` with the helpers below
 * (`inputJson`, `answerJson`, `pagedAnswerJson`) and validates with the same schemas before the handler.
 *
 * Error responses are derived from what a route is: signed-in routes answer 401 and 403 (403 also for the
 * XSRF rule of every unsafe method), routes with a path parameter 404, unsafe methods 413/415 (body too
 * large, not JSON) and 422, routes with a query 422, rate-limited routes 429, every route 503 while
 * the database cannot be reached or the server shuts down (core/drain.ts), and unsafe methods 507 while the disk is full. A route adds others
 * (409 ...) with `x-errors` in its schema.
 */
export function swaggerOptions(): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Admin back office API',
        version: '1.0.0',
        description: API_DESCRIPTION,
        license: { name: 'Proprietary', url: 'https://example.invalid/license' },
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'The access token from `POST /api/v1/user/login` (or registration, WeChat sign-in).',
          },
        },
        schemas: { ErrorEnvelope: ERROR_ENVELOPE },
        responses: ERROR_RESPONSES,
      },
      security: [{ bearer: [] }],
    },
    transform: ({ schema, url, route }: { schema: unknown; url: string; route: unknown }) => ({
      // A `route()` hands its document over lazily (core/route.ts); other routes carry it as their schema.
      schema: documented(
        route as RouteOptions,
        lazyDocumentOf(route as RouteOptions) ?? (schema as JsonSchema | undefined),
        url,
      ),
      url,
    }),
    transformObject: (doc: { openapiObject: JsonSchema }) => finish(doc.openapiObject),
  } as unknown as SwaggerOptions;
}

const API_DESCRIPTION = [
  'The API contract (design/api-contract.md) as this server implements it.',
  '',
  '**Envelope.** Every JSON answer is `{code, data}` on success and `{code, message, data: null, errors?}` on',
  'failure; `errors` maps a field to its messages (422, and 409 for a taken unique value). Messages follow',
  '`Accept-Language` (zh-CN by default, en).',
  '',
  `**XSRF.** Every answer sets the cookie \`${XSRF_COOKIE}\` (a valid one sent is answered back unchanged).`,
  'A POST, PATCH or DELETE that sends that cookie',
  `must echo its value in the \`${XSRF_HEADER}\` header, and a request with an \`Origin\` header must come from`,
  'this host; otherwise the answer is 403. Clients that send no cookie (API clients with a Bearer token) are',
  'not affected.',
  '',
  '**Authentication.** `Authorization: Bearer <access token>`. Operations marked without security are public.',
  '',
  '**Transport errors** (all in the envelope): 400 bad request, 404 unknown route, 405 a known path asked',
  'with a method it does not have (the `Allow` header lists those it has), 413 body too large, 414 a path',
  'parameter over 100 characters, 415 not JSON or a JSON body declared in a charset other than UTF-8, 422 a',
  `body that is not JSON, nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep or has a \`__proto__\``,
  '(or `constructor.prototype`) key (`errors` names it), 431 the request line and headers together over 16 KB',
  '(a very long query string is a 431, not a 414), 503 database unavailable or the server shutting down (with',
  'Retry-After).',
].join('\n');

/** The error envelope of the contract. */
export const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer', description: 'The HTTP status', example: 422 },
    message: { type: 'string', description: 'In the language of the request' },
    data: {
      type: 'object',
      nullable: true,
      description: 'null, except a 409 for a stale `version`: the current record, as the caller may see it',
    },
    errors: {
      type: 'object',
      description:
        'Field name (dotted for nested fields) -> messages; `holders` (409 of a delete) is how many records still hold it',
      properties: { holders: { type: 'integer', minimum: 1 } },
      additionalProperties: { type: 'array', items: { type: 'string' } },
    },
  },
};

const ERROR_TEXT: Record<string, string> = {
  400: 'Bad request',
  401: 'Not signed in, or the token is expired or revoked',
  403: 'Signed in without the permission this operation needs, or the XSRF rule was broken',
  404: 'No such record (or not visible to the caller)',
  409: 'Conflict: a unique value is taken, the record is still in use, or the state does not allow it',
  413: 'Body or file too large',
  414: 'A path parameter is too long (over 100 characters)',
  415: 'Unsupported content type (JSON in UTF-8 only, or multipart where documented)',
  422: 'Validation failed (`errors` names the fields), or a body that is not JSON or nests too deeply',
  431: 'The request line and headers are over 16 KB together (a very long query string)',
  429: 'Too many attempts (or open event streams); see Retry-After',
  503: 'Unavailable (the database cannot be reached, the server is shutting down, or a service is off); see Retry-After',
  507: 'Insufficient storage: the disk of the server is full, nothing was saved (reads still work)',
};

const ERROR_RESPONSES: Record<string, JsonSchema> = Object.fromEntries(
  Object.entries(ERROR_TEXT).map(([code, description]) => [
    `E${code}`,
    {
      description,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    },
  ]),
);

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Adds the operationId (when the route has none) and the error responses (`x-errors`). */
/** Route config key of a `route()`'s OpenAPI operation, built on demand: `config[LAZY_DOCUMENT]()`. */
export const LAZY_DOCUMENT = Symbol('openapi document');

/** The document `route()` left in the route's config (core/route.ts LAZY_DOCUMENT), built now. */
function lazyDocumentOf(route: RouteOptions): JsonSchema | undefined {
  const config = route.config as Record<symbol, unknown> | undefined;
  const build = config?.[LAZY_DOCUMENT];
  return typeof build === 'function' ? (build as () => JsonSchema)() : undefined;
}

function documented(route: RouteOptions, schema: JsonSchema | undefined, url: string): JsonSchema {
  const method = (Array.isArray(route.method) ? route.method[0] : route.method) as string;
  const out: JsonSchema = { ...schema };
  if (!out.operationId) out.operationId = operationIdOf(method, url);
  const isPublic = Array.isArray(out.security) && out.security.length === 0;
  const hasParams = url.includes(':');
  const errors = new Set<number>((out['x-errors'] as number[] | undefined) ?? []);
  if (!isPublic) errors.add(401).add(403);
  if (UNSAFE.has(method)) errors.add(403).add(413).add(415).add(422);
  // A path parameter over Fastify's maxParamLength (100) is a 414.
  if (hasParams) errors.add(404).add(414);
  if (out.querystring || out.body) errors.add(422);
  if ((route.config as { rateLimit?: unknown } | undefined)?.rateLimit) errors.add(429);
  // Node's parser refuses a request line and headers over 16 KB (a query string that long) with a 431.
  errors.add(400).add(431).add(503);
  if (UNSAFE.has(method)) errors.add(507);
  out['x-errors'] = [...errors].sort();
  return out;
}

/** `GET /api/v1/user/staff/:id/invitation` -> `getUserStaffByIdInvitation`. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/(v1\/)?/, '')
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `by_${seg.slice(1)}` : seg))
    .flatMap((seg) => seg.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

/** Turns `x-errors` into error responses and drops what OpenAPI 3.0 does not allow. */
function finish(doc: JsonSchema): JsonSchema {
  const paths = doc.paths as Record<string, Record<string, JsonSchema>>;
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) {
      const responses = (op.responses ??= {}) as Record<string, JsonSchema>;
      for (const code of (op['x-errors'] as number[] | undefined) ?? [])
        responses[String(code)] ??= { $ref: `#/components/responses/E${code}` };
      delete op['x-errors'];
      for (const [code, response] of Object.entries(responses)) {
        if (response.description === 'Default Response') response.description = 'Success';
        // A redirect has no body, only where to go (the OpenID sign-in's steps).
        if (/^3\d\d$/.test(code)) {
          delete response.content;
          response.headers = { Location: { description: 'Where to go', schema: { type: 'string' } } };
        }
      }
    }
  }
  nameSchemas(doc);
  fixNullable(doc);
  return doc;
}

/**
 * Moves every schema a route marked `x-name` into components.schemas under that name (the first one wins:
 * the same resource gives the same schema on every route) and points the routes at it; then turns each
 * `x-ref` into a `$ref` (an `anyOf` with null for `x-nullable`), adding its `x-def` when no route named it.
 * The engine marks its records and bodies (server/engine/openapi.ts), so a typed client gets
 * `components['schemas']['StaffRecord']` and friends.
 */
function nameSchemas(doc: JsonSchema): void {
  const components = (doc.components ??= {}) as JsonSchema;
  const schemas = (components.schemas ??= {}) as Record<string, JsonSchema>;
  const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const hoist = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(hoist);
    const o = node as JsonSchema;
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(o)) if (k !== 'x-name' && k !== 'x-def') out[k] = hoist(v);
    if ('x-def' in o) out['x-def'] = o['x-def'];
    if (typeof o['x-name'] === 'string') {
      schemas[o['x-name']] ??= out;
      return refTo(o['x-name']);
    }
    return out;
  };
  const link = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    if (Array.isArray(node)) return node.map(link);
    const o = node as JsonSchema;
    if (typeof o['x-ref'] === 'string') {
      const name = o['x-ref'];
      if (!schemas[name]) schemas[name] = link(o['x-def']) as JsonSchema;
      const { 'x-ref': _r, 'x-def': _d, 'x-nullable': nullable, ...rest } = o;
      // OpenAPI 3.0 ignores the siblings of a $ref: a description goes beside an allOf/anyOf of it.
      if (nullable)
        return { ...rest, anyOf: [refTo(name), { type: 'object', nullable: true, enum: [null] }] };
      return Object.keys(rest).length ? { ...rest, allOf: [refTo(name)] } : refTo(name);
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, link(v)]));
  };
  doc.paths = hoist(doc.paths);
  doc.paths = link(doc.paths);
  for (const name of Object.keys(schemas)) schemas[name] = link(schemas[name]) as JsonSchema;
}

/** `nullable` needs a `type` beside it in OpenAPI 3.0 (zod's `z.unknown().nullable()` has none). */
function fixNullable(node: unknown): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) return node.forEach(fixNullable);
  const o = node as JsonSchema;
  if (o.nullable === true && o.type === undefined) {
    delete o.nullable;
    const union = (o.anyOf ?? o.oneOf) as JsonSchema[] | undefined;
    if (union) union.push({ type: 'object', nullable: true, enum: [null] });
  }
  for (const v of Object.values(o)) fixNullable(v);
}

// ---------------------------------------------------------------------------------------------------
// Route schema parts, from zod. Each route declares its own `schema` beside its handler (the engine's routes:
// server/engine/openapi.ts); these turn the zod schemas of the route into JSON Schema.

/** `{code: 200, data}`. */
export function envelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { code: { type: 'integer', example: 200 }, data },
    required: ['code', 'data'],
  };
}
/** The `data` of an answer that carries nothing (`ok(null)`). */
export const NULL_DATA: JsonSchema = { type: 'object', nullable: true, enum: [null] };
/** `{code: 200, data: null}`: the answer of a route that carries nothing. */
export const NULL_ANSWER: JsonSchema = envelope(NULL_DATA);

const toJson = (schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema => {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as JsonSchema;
  delete json.$schema;
  return json;
};

/**
 * A route's documented body or query, from the zod schema that validates it (what a client may send).
 * Example: `schema: { body: inputJson(loginSchema), response: { 200: answerJson(tokenSchema) } }`.
 */
export function inputJson(schema: z.ZodType): JsonSchema {
  return toJson(schema, 'input');
}

/** A route's documented success answer: the envelope around a wire shape. */
export function answerJson(schema: z.ZodType): JsonSchema {
  return envelope(wireJson(schema));
}

/**
 * A paged list's documented answer: `{code, data: {data: [item], meta: {pagination}}}` (server/core/paged.ts
 * builds it); `meta` documents what a list adds beside the pagination (the logs' `node`).
 */
export function pagedAnswerJson(item: z.ZodType, meta: z.ZodRawShape = {}): JsonSchema {
  return answerJson(
    z.object({
      data: z.array(item),
      meta: z.object({ pagination: paginationSchema, ...meta }),
    }),
  );
}

/**
 * The JSON Schema of a wire shape in schemas/ (an answer): open objects (an answer may carry more, as a
 * task read alone adds `next_runs`) and integers without zod's safe-integer bounds.
 */
export function wireJson(schema: z.ZodType): JsonSchema {
  return opened(toJson(schema, 'output')) as JsonSchema;
}

function opened(node: unknown): unknown {
  if (!node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(opened);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'additionalProperties' && value === false) continue;
    // zod writes bounds of +-2^53-1 on every integer; an answer's ids and counts have no such limit.
    if (isSafeBound(key, value)) continue;
    out[key] = opened(value);
  }
  return out;
}

function isSafeBound(key: string, value: unknown): boolean {
  return (key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER;
}
