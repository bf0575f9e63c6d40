import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import * as z from 'zod';
import { AppError } from './errors.ts';
import { answerJson, inputJson, LAZY_DOCUMENT, NULL_ANSWER, pagedAnswerJson } from './openapi.ts';
import { requirePermission, type Principal } from './principal.ts';
import { validate } from './validate.ts';

type JsonSchema = Record<string, unknown>;

/**
 * Declares one API route once: its params, query, body and answers are both what the OpenAPI document shows
 * (`GET /api/docs`, server/core/openapi.ts adds the shared parts) and what the handler receives, parsed and
 * typed. In order, after the input hygiene every route gets (core/http.ts `preValidation`: a path `:id` that
 * is no record id or text with NUL / a lone surrogate is a 404 or 422 before any sign-in check, which shows
 * only the route's shape): `access` (401/403), the path params (a path that fails them names nothing: 404),
 * the query and the body (422 with localized field messages, the error envelope of core/http.ts), then the
 * handler. Example:
 * ```ts
 * route(app, {
 *   method: 'POST', url: '/api/v1/things/:id/rename', tags: ['things'], summary: 'Rename a thing',
 *   access: permission('things.update'),
 *   params: z.object({ id: z.string() }), body: z.object({ name: z.string().min(1) }),
 *   responses: { 200: thingSchema },
 *   handler: async ({ params, body, principal }) => ok(await renameThing(db, { ...params, ...body, principal })),
 * });
 * ```
 */
export function route<
  P extends Input = Input,
  Q extends Input = Input,
  B extends Input = Input,
  A = undefined,
>(app: FastifyInstance, spec: RouteSpec<P, Q, B, A>): void {
  const { method, url, params, query, body, access, handler } = spec;
  app.route({
    method,
    url,
    ...(spec.compress === false ? { compress: false } : {}),
    // The operation's document (zod turned into JSON Schema) is built when the OpenAPI document is, not at
    // every start (issue 37 item 3; core/openapi.ts `swaggerOptions` reads it). Fastify gets none: its
    // compilers do nothing (core/no-compilers.ts).
    config: { ...spec.config, [LAZY_DOCUMENT]: () => documentOf(spec) },
    handler: async (request, reply) => {
      const principal = (access ? await access(request) : undefined) as A;
      return handler({
        params: paramsOf(params, request.params),
        query: parse(query, request.query),
        body: parse(body, request.body),
        principal,
        request,
        reply,
      });
    },
  });
}

/** What `route` takes. P, Q and B: zod schemas (validated) or `unchecked(...)` (documented, left raw). */
export interface RouteSpec<P extends Input, Q extends Input, B extends Input, A> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  tags: string[];
  summary: string;
  description?: string;
  /** Derived from the method and url when left out (`getUserStaffByIdInvitation`). */
  operationId?: string;
  /** Signed-out callers may call it (no bearer token in the document). */
  isPublic?: boolean;
  /** Error statuses beyond those derived from what the route is (409 ...; see core/openapi.ts). */
  errors?: number[];
  params?: P;
  query?: Q;
  body?: B;
  /** Answers by status: a wire shape (answered in the envelope), `null` (`ok(null)`), or `pagedOf`/`rawAnswer`. */
  responses: Record<number, Answer>;
  /** Who may call, before any input is parsed (`permission(name)`, `requireUser` ...): its result is `principal`. */
  access?: (request: FastifyRequest) => Promise<A>;
  /** Fastify route config: `rateLimit`, `pathId: 'any'` (a path id that is not a record id, core/http.ts). */
  config?: NonNullable<RouteOptions['config']> & { pathId?: 'any' };
  /** More of the operation's document that nothing validates (a multipart body, `produces`). */
  openapi?: JsonSchema;
  /**
   * The documenting parts above, built only with the OpenAPI document (they replace those given here):
   * the engine's routes (server/engine/openapi.ts `routeDoc` of a `lazyDoc`).
   */
  document?: () => Partial<Pick<RouteSpec<P, Q, B, A>, DocumentingKey>>;
  /**
   * `false` for an answer always too small to gain from compression (under the 1 kB threshold): the route
   * then runs none of @fastify/compress's hooks (issue 37: compression only where it pays).
   */
  compress?: false;
  handler(input: {
    params: Parsed<P>;
    query: Parsed<Q>;
    body: Parsed<B>;
    principal: A;
    request: FastifyRequest;
    reply: FastifyReply;
  }): Promise<unknown>;
}

type DocumentingKey =
  'tags' | 'summary' | 'description' | 'operationId' | 'errors' | 'query' | 'body' | 'responses' | 'openapi';

/** A route input: a zod schema that validates it, or `unchecked(...)`. */
export type Input = z.ZodType | Unchecked<unknown>;

/**
 * An input the route documents but hands on as it came: the operation validates it (it is called from jobs and
 * the CLI too, or it needs the resource's labels and field access, as the engine's do), or the route takes
 * whatever comes (a lenient query). `T` is what the handler is told it is.
 */
export interface Unchecked<T> {
  /** Undefined: documented elsewhere (the engine's list query language, in the route's description). */
  readonly unchecked: JsonSchema | undefined;
  /** Never set: carries `T` for the handler's types. */
  readonly type?: T;
}

/** Documents `schema` (zod, or JSON Schema as written) without validating. Example: `body: unchecked(taskSchema)`. */
export function unchecked<T = unknown>(schema?: z.ZodType | JsonSchema): Unchecked<T> {
  if (!(schema instanceof z.ZodType)) return { unchecked: schema };
  // Turned into JSON Schema when the OpenAPI document is built, not at registration (issue 37 item 3).
  return documentedOnRead('unchecked', () => inputJson(schema));
}

/** A documented answer other than a wire shape in the envelope. */
export interface DocumentedAnswer {
  readonly answer: JsonSchema;
}

/** A paged list's answer (core/paged.ts): `{code, data: {data: [item], meta: {pagination, ...meta}}}`. */
export function pagedOf(item: z.ZodType, meta: z.ZodRawShape = {}): DocumentedAnswer {
  return documentedOnRead('answer', () => pagedAnswerJson(item, meta));
}

/** An answer documented as JSON Schema, as written (a CSV file, the engine's records). */
export function rawAnswer(answer: JsonSchema): DocumentedAnswer {
  return { answer };
}

/** `access` for a route that needs one permission (401 signed out, 403 without it). */
export function permission(name: string): (request: FastifyRequest) => Promise<Principal> {
  return Object.assign((request: FastifyRequest) => requirePermission(request, name), {
    permission: name,
  });
}

type Answer = z.ZodType | null | DocumentedAnswer;
type Parsed<I> = I extends z.ZodType ? z.output<I> : I extends Unchecked<infer T> ? T : undefined;

function parse<I extends Input>(schema: I | undefined, input: unknown): Parsed<I> {
  if (!schema) return undefined as Parsed<I>;
  if (isUnchecked(schema)) return input as Parsed<I>;
  return validate(schema, input) as Parsed<I>;
}

/** Path params that fail their schema name no record: 404, as an id that is not one (core/http.ts). */
function paramsOf<I extends Input>(schema: I | undefined, input: unknown): Parsed<I> {
  if (!schema || isUnchecked(schema)) return input as Parsed<I>;
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw AppError.notFound();
  return result.data as Parsed<I>;
}

function isUnchecked(input: Input): input is Unchecked<unknown> {
  return !(input instanceof z.ZodType);
}

function documentOf(given: RouteSpec<Input, Input, Input, unknown>): JsonSchema {
  const spec = given.document ? { ...given, ...given.document() } : given;
  const json = (input: Input | undefined) =>
    input === undefined ? undefined : isUnchecked(input) ? input.unchecked : inputJson(input);
  const needs = (spec.access as { permission?: string } | undefined)?.permission;
  const description =
    needs && !spec.description?.includes(`\`${needs}\``)
      ? [spec.description, `Needs the permission \`${needs}\`.`].filter(Boolean).join(' ')
      : spec.description;
  const doc: JsonSchema = {
    tags: spec.tags,
    summary: spec.summary,
    ...(description ? { description } : {}),
    ...(spec.operationId ? { operationId: spec.operationId } : {}),
    ...(spec.isPublic ? { security: [] } : {}),
    ...(spec.errors?.length ? { 'x-errors': spec.errors } : {}),
    params: json(spec.params),
    querystring: json(spec.query),
    body: json(spec.body),
    response: Object.fromEntries(
      Object.entries(spec.responses).map(([status, answer]) => [status, answerDoc(answer)]),
    ),
    ...spec.openapi,
  };
  for (const key of Object.keys(doc)) if (doc[key] === undefined) delete doc[key];
  return doc;
}

function answerDoc(answer: Answer): JsonSchema {
  if (answer === null) return NULL_ANSWER;
  if (answer instanceof z.ZodType) return answerJson(answer);
  return answer.answer;
}

/** `{ [key]: build() }`, with `build` run on the first read of `key` only (the OpenAPI document reads it). */
function documentedOnRead<K extends string>(key: K, build: () => JsonSchema): Record<K, JsonSchema> {
  let built: JsonSchema | undefined;
  return Object.defineProperty({} as Record<K, JsonSchema>, key, {
    enumerable: true,
    get: () => (built ??= build()),
  });
}
