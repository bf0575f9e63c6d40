import type { SwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import { profileUpdateSchema } from '../../schemas/auth.ts';
import { departmentNodeSchema } from '../../schemas/departments.ts';
import { logEntrySchema } from '../../schemas/logs.ts';
import { paginationSchema } from '../../schemas/pagination.ts';
import { settingsSchemas } from '../../schemas/settings.ts';
import { taskRecordSchema, taskRunSchema } from '../../schemas/tasks.ts';
import { XSRF_COOKIE, XSRF_HEADER } from './http.ts';

type JsonSchema = Record<string, unknown>;

/**
 * The OpenAPI document's shared parts (`GET /api/docs`): the security schemes, the error envelope, every
 * operation's operationId and error responses, and the success schemas of the hand-written module routes
 * that do not carry their own. Route `schema` objects only document; zod validates inside the handlers.
 *
 * Error responses are derived from what a route is: signed-in routes answer 401 and 403 (403 also for the
 * XSRF rule of every unsafe method), routes with a path parameter 404, unsafe methods 413/415 (body too
 * large, not JSON) and 422, routes with a query 422, rate-limited routes 429, and every route 503 while
 * the database cannot be reached. A route adds others (409 ...) with `x-errors` in its schema.
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
      schema: documented(route as RouteOptions, schema as JsonSchema | undefined, url),
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
  `**XSRF.** Every answer sets the cookie \`${XSRF_COOKIE}\`. A POST, PATCH or DELETE that sends that cookie`,
  `must echo its value in the \`${XSRF_HEADER}\` header, and a request with an \`Origin\` header must come from`,
  'this host; otherwise the answer is 403. Clients that send no cookie (API clients with a Bearer token) are',
  'not affected.',
  '',
  '**Authentication.** `Authorization: Bearer <access token>`. Operations marked without security are public.',
  '',
  '**Transport errors** (all in the envelope): 400 bad request, 404 unknown route, 413 body too large,',
  '414 path too long, 415 not JSON, 431 headers too large, 503 database unavailable (with Retry-After).',
].join('\n');

/** The error envelope of the contract. */
export const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer', description: 'The HTTP status', example: 422 },
    message: { type: 'string', description: 'In the language of the request' },
    data: { type: 'object', nullable: true, enum: [null] },
    errors: {
      type: 'object',
      description: 'Field name (dotted for nested fields) -> messages',
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
  414: 'A path parameter is too long',
  415: 'Unsupported content type (JSON only, or multipart where documented)',
  422: 'Validation failed; `errors` names the fields',
  429: 'Too many attempts; see Retry-After',
  503: 'Unavailable (the database cannot be reached, or a service is off); see Retry-After',
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

/** Adds the operationId, the documented success answer (when the route has none) and `x-errors`. */
function documented(route: RouteOptions, schema: JsonSchema | undefined, url: string): JsonSchema {
  const method = (Array.isArray(route.method) ? route.method[0] : route.method) as string;
  const given = schema ?? {};
  const extra = MODULE_ROUTES[`${method} ${url}`] ?? {};
  const out: JsonSchema = {
    ...given,
    ...extra,
    ...pick(given, ['summary', 'tags', 'params', 'querystring']),
  };
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
  errors.add(400).add(503);
  out['x-errors'] = [...errors].sort();
  return out;
}

function pick(o: JsonSchema, keys: string[]): JsonSchema {
  return Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
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
      for (const response of Object.values(responses))
        if (response.description === 'Default Response') response.description = 'Success';
    }
  }
  fixNullable(doc);
  return doc;
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
// Success answers of the module routes (the engine's routes document themselves: server/engine/openapi.ts)

const str = { type: 'string' };
const int = { type: 'integer' };
const num = { type: 'number' };
const bool = { type: 'boolean' };
const id = { type: 'string', pattern: '^\\d+$' };
const any = {};
const time = { type: 'string', format: 'date-time' };
const nullable = (s: JsonSchema): JsonSchema => ({ ...s, nullable: true });
const obj = (properties: JsonSchema, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});
const arr = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
/** `{code: 200, data}`. */
export const envelope = (data: JsonSchema): JsonSchema =>
  obj({ code: { type: 'integer', example: 200 }, data });
export const NULL_DATA: JsonSchema = { type: 'object', nullable: true, enum: [null] };
export const paginated = (item: JsonSchema): JsonSchema =>
  obj({ data: arr(item), meta: obj({ pagination: wireJson(paginationSchema) }) });
const pageQuery = {
  page: { type: 'integer', minimum: 1, default: 1 },
  size: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
};
const ok = (data: JsonSchema, status = 200) => ({ response: { [status]: envelope(data) } });
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
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER)
      continue;
    out[key] = opened(value);
  }
  return out;
}

const task = wireJson(taskRecordSchema);
/** The write body of a task (server/modules/tasks/validate.ts). */
const taskBody = (required: string[]) =>
  obj(
    {
      name: { type: 'string', minLength: 1, maxLength: 100 },
      handler: { type: 'string', minLength: 1, maxLength: 100, description: 'See GET tasks/handlers' },
      params: { type: 'object', additionalProperties: true, description: "The handler's parameters" },
      cron: { type: 'string', minLength: 1, maxLength: 100, description: 'Five-field cron expression' },
      timezone: { type: 'string', minLength: 1, maxLength: 64, default: 'UTC' },
      state: { type: 'boolean', default: true },
    },
    required,
  );
export const job = obj(
  {
    id: str,
    queue: str,
    state: str,
    data: any,
    output: any,
    progress: nullable(num),
    error: nullable(str),
    retry_count: int,
    retry_limit: int,
    created_at: time,
    started_at: nullable(time),
    completed_at: nullable(time),
  },
  ['id', 'queue', 'state', 'retry_count', 'retry_limit', 'created_at'],
);
const activity = obj(
  {
    id,
    operator_id: nullable(str),
    operator: nullable(obj({ id, username: str, name: nullable(str) }, ['id'])),
    action: str,
    subject_type: nullable(str),
    subject_id: nullable(str),
    changes: any,
    ip: nullable(str),
    user_agent: nullable(str),
    created_at: time,
  },
  ['id', 'action', 'created_at'],
);
interface MenuNode {
  [key: string]: unknown;
}
const menuItem: MenuNode = obj(
  {
    name: nullable(str),
    title: str,
    title_key: str,
    icon: nullable(str),
    path: nullable(str),
    disabled: bool,
    children: arr({ type: 'object', additionalProperties: true, description: 'Menu items, the same shape' }),
  },
  ['title', 'title_key', 'disabled'],
);
const departmentNode = wireJson(departmentNodeSchema);
const moduleInfo = obj(
  {
    name: str,
    title: str,
    description: str,
    core: bool,
    enabled: bool,
    paths: arr(str),
  },
  ['name', 'enabled'],
);
const profile = obj(
  {
    id,
    username: str,
    name: nullable(str),
    email: nullable(str),
    phone: nullable(str),
    avatar: nullable(str),
    staff: nullable(
      obj(
        {
          id,
          is_admin: int,
          department_id: nullable(str),
          roles: arr(obj({ id, name: str, permissions: obj({ menu_ids: arr(str) }) })),
        },
        ['id', 'is_admin'],
      ),
    ),
  },
  ['id', 'username'],
);
const settingsGroups = Object.keys(settingsSchemas);
const settingsBody: JsonSchema = {
  oneOf: Object.values(settingsSchemas).map((s) => toJson((s as z.ZodObject).partial())),
  description: `The group's fields (one of the groups ${settingsGroups.join(', ')})`,
};
const asset = obj({ id, name: str, size: int, mime: str, created_at: time, updated_at: time }, [
  'id',
  'name',
  'size',
  'mime',
  'created_at',
]);
/** The WeChat routes answer 404 while WeChat sign-in is off (settings `login`). */
const wechatOff = { 'x-errors': [404] };
const noQuery = (summary?: string) => (summary ? { description: summary } : {});

/** `METHOD url` -> schema parts of hand-written routes that do not document these themselves. */
const MODULE_ROUTES: Record<string, JsonSchema> = {
  'GET /api/health': ok(obj({ status: { type: 'string', enum: ['ok'] } })),
  'GET /api/health/ready': ok(obj({ status: { type: 'string', enum: ['ready'] } })),
  'POST /api/v1/user/logout': ok(NULL_DATA),
  'POST /api/v1/user/captcha': ok(obj({ expires_in: int, resend_in: int })),
  'POST /api/v1/user/reset': ok(NULL_DATA),
  'POST /api/v1/user/password': ok(NULL_DATA),
  'GET /api/v1/user/profile': ok(profile),
  'POST /api/v1/user/profile': { ...ok(profile), body: toJson(profileUpdateSchema), 'x-errors': [409] },
  'GET /api/v1/settings/:name': ok({ type: 'object', additionalProperties: true }),
  'POST /api/v1/settings/:name': {
    ...ok({ type: 'object', additionalProperties: true }),
    body: settingsBody,
  },
  'POST /api/v1/resources/assets': {
    response: { 201: envelope(asset) },
    consumes: ['multipart/form-data'],
    body: obj({ file: { type: 'string', format: 'binary', description: 'The file (one part)' } }),
  },
  'DELETE /api/v1/resources/assets/:id': { ...ok(NULL_DATA), 'x-errors': [409] },
  'GET /api/v1/resources/assets/:id/download': {
    response: { 200: { description: 'The file', type: 'string', format: 'binary' } },
    produces: ['application/octet-stream'],
  },
  'DELETE /api/v1/wechat/officialaccount/identity': { ...ok(NULL_DATA), ...wechatOff },
  'GET /api/v1/wechat/officialaccount/auth': wechatOff,
  'POST /api/v1/wechat/officialaccount/login': wechatOff,
  'POST /api/v1/wechat/officialaccount/register': wechatOff,
  'GET /api/v1/system/menus': ok(arr(menuItem)),
  'GET /api/v1/user/department/tree': ok(arr(departmentNode)),
  'POST /api/v1/user/join': {
    ...ok(obj({ staff_id: id })),
    body: obj({ invitation: { type: 'string', minLength: 1, maxLength: 200 } }),
    'x-errors': [409],
  },
  'POST /api/v1/user/staff/:id/invitation': {
    ...ok(obj({ invitation_url: str, invitation_expires_at: time })),
    'x-errors': [409],
  },
  'GET /api/v1/user/users/:id/logins': {
    ...ok(
      paginated(
        obj(
          { id, action: str, changes: any, ip: nullable(str), user_agent: nullable(str), created_at: time },
          ['id', 'action', 'created_at'],
        ),
      ),
    ),
    querystring: obj(pageQuery, []),
  },
  'GET /api/v1/user/logs': {
    ...ok(paginated(activity)),
    ...noQuery('The list query of the contract (search, searchFields, orderBy ...) over the activity log.'),
  },
  'GET /api/v1/user/logs/operators': ok(
    arr(obj({ id, username: str, name: nullable(str) }, ['id', 'username'])),
  ),
  'GET /api/v1/user/logs/:id': ok(activity),
  'GET /api/v1/dictionary/options/:slug': ok(obj({ slug: str, data: arr(obj({ label: str, value: str })) })),
  'GET /api/v1/events': {
    response: { 200: { description: 'A text/event-stream that stays open', type: 'string' } },
    produces: ['text/event-stream'],
  },
  'GET /api/v1/system/modules': ok(arr(moduleInfo)),
  'POST /api/v1/system/modules/:name/enable': ok(moduleInfo),
  'POST /api/v1/system/modules/:name/disable': ok(moduleInfo),
  'GET /api/v1/system/dashboard': ok(
    obj({
      counts: obj({ users: int, staff: int, sign_ins_today: int, failed_jobs: nullable(int) }, [
        'users',
        'staff',
        'sign_ins_today',
      ]),
      sign_ins: arr(obj({ day: str, count: int })),
      recent_activity: arr({ type: 'object', additionalProperties: true }),
    }),
  ),
  'GET /api/v1/system/monitor': ok(
    obj(
      {
        at: time,
        host: { type: 'object', additionalProperties: true },
        disk: nullable({ type: 'object', additionalProperties: true }),
        process: { type: 'object', additionalProperties: true },
        database: { type: 'object', additionalProperties: true },
        queues: nullable({ type: 'object', additionalProperties: true }),
      },
      ['at', 'host', 'process', 'database'],
    ),
  ),
  'GET /api/v1/system/logs': ok(paginated(wireJson(logEntrySchema))),
  'GET /api/v1/system/tasks': { ...ok(paginated(task)), querystring: obj(pageQuery, []) },
  'POST /api/v1/system/tasks': {
    response: { 201: envelope(task) },
    body: taskBody(['name', 'handler', 'cron']),
  },
  'GET /api/v1/system/tasks/handlers': ok(
    arr(
      obj(
        {
          name: str,
          description: str,
          label: str,
          params_schema: { type: 'object', additionalProperties: true },
        },
        ['name', 'label'],
      ),
    ),
  ),
  'POST /api/v1/system/tasks/preview': {
    ...ok(obj({ next_runs: arr(time) })),
    body: obj(
      {
        cron: { type: 'string', minLength: 1, maxLength: 100 },
        timezone: { type: 'string', maxLength: 64, default: 'UTC' },
      },
      ['cron'],
    ),
  },
  'GET /api/v1/system/tasks/:id': ok({
    ...task,
    properties: { ...(task.properties as JsonSchema), next_runs: arr(time) },
  }),
  'PATCH /api/v1/system/tasks/:id': { ...ok(task), body: taskBody([]) },
  'DELETE /api/v1/system/tasks/:id': ok(NULL_DATA),
  'GET /api/v1/system/tasks/:id/runs': {
    ...ok(paginated(wireJson(taskRunSchema))),
    querystring: obj(pageQuery, []),
  },
  'POST /api/v1/system/tasks/:id/run': {
    response: { 202: envelope(obj({ job_id: nullable(str), queue: nullable(str), run_id: nullable(str) })) },
  },
  'GET /api/v1/system/jobs': ok(
    arr(
      obj({
        name: str,
        task_name: nullable({ ...str, description: "the scheduled task's name for a task's queue" }),
        counts: { type: 'object', additionalProperties: int },
      }),
    ),
  ),
  'GET /api/v1/system/nodes': ok(
    arr(
      obj(
        {
          id: str,
          host: str,
          pid: int,
          version: str,
          started_at: time,
          last_seen: time,
          stopped_at: nullable(time),
          status: { type: 'string', enum: ['live', 'gone'] },
          is_self: bool,
          figures: nullable({ type: 'object', additionalProperties: true }),
        },
        ['id', 'host', 'pid', 'version', 'started_at', 'last_seen', 'status', 'is_self'],
      ),
    ),
  ),
  'GET /api/v1/system/jobs/:queue': {
    ...ok(paginated(job)),
    querystring: obj({ ...pageQuery, state: str }, []),
  },
  'GET /api/v1/system/jobs/:queue/:id': ok(job),
  'POST /api/v1/system/jobs/:queue/:id/retry': { ...ok(job), 'x-errors': [409] },
  'POST /api/v1/system/jobs/:queue/:id/cancel': { ...ok(job), 'x-errors': [409] },
};
