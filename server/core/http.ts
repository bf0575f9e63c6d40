import crypto from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isIdString, isUnsafeText } from '../../resources/fields.ts';
import { negotiateLocale, translate, type Locale } from '../../locales/index.ts';
import { decodeMessage, fieldErrors } from '../../schemas/messages.ts';
import { appErrorOfDb } from './db-errors.ts';
import { AppError } from './errors.ts';
import { ZodAppError } from './validate.ts';
import type { ErrorEnvelope } from './envelope.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods some route answers for this concrete API path (empty: no route has the path). */
    allowedMethods(path: string): string[];
  }
  interface FastifyRequest {
    locale: Locale;
    /** Translates a message key into the request's language. */
    t(key: string, params?: Record<string, unknown>): string;
  }
}

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;
/**
 * How deeply a JSON body may nest arrays and objects (the top level counts as 1). The deepest real form (a
 * list query's filters, a settings group, a nested include) stays under 10; deeper bodies are a 422.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * The contract's transport rules in one place: language negotiation, JSON body parsing (an empty body is
 * no body, anything but JSON is 415), the XSRF cookie and its check, the same-origin check, and the error
 * envelope for every failure. Requires @fastify/cookie to be registered first.
 */
export function registerHttpContract(app: FastifyInstance): void {
  app.decorateRequest('locale', 'zh-CN');
  app.decorateRequest('t', function (this: FastifyRequest, key: string, params?: Record<string, unknown>) {
    return translate(this.locale, key, params);
  });

  // Only JSON is parsed; text/plain and friends fall through to Fastify's 415.
  app.removeContentTypeParser('text/plain');
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    // The body was read as UTF-8; a JSON body declared in another character set is refused, not misread.
    if (!isUtf8Charset(req.headers['content-type']))
      return done(new AppError(415, 'errors.unsupported_charset'));
    if (body === '' || body === undefined) return done(null, undefined);
    // Too deep a body never reaches the parser or anything recursive after it (a 422, not a stack overflow).
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH))
      return done(new AppError(422, 'errors.json_too_deep', { params: { max: MAX_JSON_DEPTH } }));
    void defaultJson(req, body as string, (error: Error | null, value?: unknown) => {
      // `__proto__` / `constructor.prototype` keys are refused (they could reach an object's prototype), as
      // a 422 naming the key rather than "not JSON": the body is JSON, the key is what is not accepted.
      const key = error ? forbiddenKeyIn(body as string) : null;
      if (key)
        return done(
          new AppError(422, 'errors.forbidden_key', {
            params: { key },
            fields: { [key]: ['errors.forbidden_key_short'] },
          }),
        );
      done(error, value);
    });
  });

  // Which methods each API path pattern has, for the 405 of a known path asked with another method. The
  // patterns are built on the first 405 question, not for each of the ~400 routes at start-up (issue 37
  // item 3); a route added later still joins them.
  const routes: { url: string; method: string }[] = [];
  let patterns: { pattern: RegExp; method: string }[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs/ui')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routes.push({ url: route.url, method });
  });
  app.decorate('allowedMethods', (path: string) => {
    if (patterns.length < routes.length) {
      const byUrl = new Map<string, RegExp>();
      patterns = routes.map(({ url, method }) => {
        let pattern = byUrl.get(url);
        if (!pattern) byUrl.set(url, (pattern = routePattern(url)));
        return { pattern, method };
      });
    }
    return [...new Set(patterns.filter((r) => r.pattern.test(path)).map((r) => r.method))];
  });

  // Callback hooks (core/hosts.ts says why); what they throw reaches the error handler as a rejection did.
  app.addHook('onRequest', (request, reply, done) => {
    request.locale = negotiateLocale(request.headers['accept-language']);
    if (request.url.startsWith('/assets/')) return done();
    const sent = request.cookies[XSRF_COOKIE];
    // Every answer sets the cookie (contract, "XSRF"), but a token is minted only for a browser that holds
    // none or a malformed one: a valid one is answered back as it came, so it never changes under an open tab.
    const hasValidCookie = typeof sent === 'string' && TOKEN_SHAPE.test(sent);
    reply.setCookie(XSRF_COOKIE, hasValidCookie ? sent : crypto.randomBytes(32).toString('base64url'), {
      path: '/',
      sameSite: 'lax',
      httpOnly: false,
      secure: request.protocol === 'https',
    });
    if (!UNSAFE_METHODS.has(request.method)) return done();
    if (sent !== undefined && request.headers[XSRF_HEADER] !== sent) throw new AppError(403, 'errors.xsrf');
    if (!isSameOrigin(request)) throw new AppError(403, 'errors.xsrf');
    done();
  });

  // Input hygiene: no string the API accepts may carry NUL or an unpaired surrogate (PostgreSQL cannot store
  // them, and they are never meant). A body or query value is a 422 naming the field; a path parameter a 404.
  app.addHook('preValidation', (request, _reply, done) => {
    const params = request.params as Record<string, unknown> | undefined;
    if (params && unsafeTextPaths(params).length) throw AppError.notFound();
    // A path `:id` is a record id (digits, within bigint) unless the route says otherwise
    // (`config: { pathId: 'any' }`): anything else names no record, so it is a 404, for every route.
    const pathId = (request.routeOptions.config as { pathId?: string } | undefined)?.pathId;
    if (typeof params?.id === 'string' && pathId !== 'any' && !isIdString(params.id))
      throw AppError.notFound();
    const bad = [...unsafeTextPaths(request.query), ...unsafeTextPaths(request.body)];
    if (bad.length)
      throw AppError.validation(Object.fromEntries(bad.map((p) => [p, ['validation.bad_text']])));
    done();
  });

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    const { status, body, headers } = toErrorResponse(error, request);
    if (status >= 500) {
      // Which operation failed (route and, for the database, the statement's verb and table), never SQL text.
      const route = `${request.method} ${request.routeOptions.url ?? '(no route)'}`;
      request.log.error({ err: safeError(error), route }, 'request failed');
    }
    if (headers) void reply.headers(headers);
    // A body left unread (an upload the full disk refused mid-way: its stream stopped, never drained)
    // would stall the connection's next request: close it after this answer.
    if (request.raw.complete === false) void reply.header('connection', 'close');
    void reply.code(status).send(body);
  });
}

/** The error envelope in the request's language. */
export function errorBody(
  request: FastifyRequest,
  status: number,
  key: string,
  params?: Record<string, unknown>,
  errors?: Record<string, string[] | number>,
): ErrorEnvelope {
  const body: ErrorEnvelope = { code: status, message: request.t(key, params), data: null };
  if (errors) body.errors = errors;
  return body;
}

function toErrorResponse(
  thrown: FastifyError | AppError | Error,
  request: FastifyRequest,
): { status: number; body: ErrorEnvelope; headers?: Record<string, string> } {
  let error = thrown;
  const t = (key: string, params: Record<string, unknown> = {}) => request.t(key, params);
  if (error instanceof ZodAppError) {
    return { status: 422, body: errorBody(request, 422, error.key, {}, fieldErrors(error.zod, t)) };
  }
  if (!(error instanceof AppError)) {
    const mapped = appErrorOfDb(error);
    if (mapped) error = mapped;
  }
  if (error instanceof AppError) {
    const translated = error.fields
      ? Object.fromEntries(
          Object.entries(error.fields).map(([f, keys]) => [
            f,
            keys.map((k) => t(decodeMessage(k).key, decodeMessage(k).params)),
          ]),
        )
      : undefined;
    const fields = error.literal ? { ...translated, ...error.literal } : translated;
    const body = errorBody(request, error.status, error.key, error.params, fields);
    if (error.data !== null) body.data = error.data;
    return { status: error.status, body, headers: error.headers };
  }
  const fe = error as FastifyError;
  if (fe.validation) {
    const errors: Record<string, string[]> = {};
    for (const v of fe.validation) {
      const missing = (v.params as { missingProperty?: string }).missingProperty;
      const field = missing ?? (v.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_');
      (errors[field] ??= []).push(t(missing ? 'validation.required' : 'validation.invalid'));
    }
    return { status: 422, body: errorBody(request, 422, 'errors.validation', {}, errors) };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 413, body: errorBody(request, 413, 'errors.payload_too_large') };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 415, body: errorBody(request, 415, 'errors.unsupported_media_type') };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 422, body: errorBody(request, 422, 'errors.invalid_json') };
  }
  if (error instanceof SyntaxError && (fe.statusCode ?? 0) === 400) {
    return { status: 422, body: errorBody(request, 422, 'errors.invalid_json') };
  }
  const status = fe.statusCode ?? 500;
  if (status === 429) return { status, body: errorBody(request, 429, 'errors.rate_limited') };
  if (status === 413) return { status, body: errorBody(request, 413, 'errors.payload_too_large') };
  if (status === 415) return { status, body: errorBody(request, 415, 'errors.unsupported_media_type') };
  if (status >= 400 && status < 500)
    return { status, body: errorBody(request, status, 'errors.bad_request') };
  return { status: 500, body: errorBody(request, 500, 'errors.server_error') };
}

/**
 * What of an unexpected error may be logged: its type, SQLSTATE, constraint and, for errors that are not
 * from the database, the message. Never the stack, the SQL text or bound values.
 */
export function safeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error };
  const e = error as Error & { code?: unknown; constraint?: unknown; table?: unknown; statement?: unknown };
  const isDbError = typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
  return isDbError
    ? { type: e.name, sqlstate: e.code, constraint: e.constraint, table: e.table, statement: e.statement }
    : { type: e.name, code: e.code, message: e.message.slice(0, 300), statement: e.statement };
}

/** The Origin header, when sent, names this site: same scheme, host and port (an https Origin on http fails). */
function isSameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    return new URL(origin).origin === new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return false;
  }
}

/**
 * Paths (`name`, `parts.0.code`, `_` for the value itself) of strings, keys included, that hold NUL or an
 * unpaired surrogate. At most 20 are reported.
 */
export function unsafeTextPaths(value: unknown, path: string[] = [], out: string[] = []): string[] {
  if (out.length >= 20) return out;
  if (typeof value === 'string') {
    if (isUnsafeText(value)) out.push(path.length ? path.join('.').slice(0, 200) : '_');
  } else if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    return out; // raw bytes (uploads) are not text
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => unsafeTextPaths(item, [...path, String(i)], out));
  } else if (value && typeof value === 'object' && path.length < 32) {
    for (const [key, item] of Object.entries(value)) {
      if (isUnsafeText(key)) out.push([...path, '_key'].join('.'));
      else unsafeTextPaths(item, [...path, key], out);
    }
  }
  return out;
}

/**
 * The dotted path of the first `__proto__` key, or `constructor` key holding a `prototype`, in a JSON text
 * (the keys Fastify's parser refuses); null when the text is not JSON or has none. `JSON.parse` keeps such
 * keys as plain own properties, so looking at them is safe.
 */
export function forbiddenKeyIn(text: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const walk = (node: unknown, path: string[]): string | null => {
    if (!node || typeof node !== 'object') return null;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        const found = walk(item, [...path, String(i)]);
        if (found) return found;
      }
      return null;
    }
    const o = node as Record<string, unknown>;
    if (Object.hasOwn(o, '__proto__')) return [...path, '__proto__'].join('.');
    const ctor = Object.hasOwn(o, 'constructor') ? o.constructor : undefined;
    if (ctor && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype'))
      return [...path, 'constructor'].join('.');
    for (const [k, v] of Object.entries(o)) {
      const found = walk(v, [...path, k]);
      if (found) return found;
    }
    return null;
  };
  return walk(parsed, []);
}

/**
 * Fastify's `frameworkErrors`: errors the router raises before any hook runs (a path parameter over
 * `maxParamLength` is a 414, a malformed URL a 400), answered in the envelope in the request's language.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // The request has not been through any hook (no `t` yet): translate directly.
  const locale = negotiateLocale(request.headers['accept-language']);
  const isLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const status = isLong ? 414 : (error.statusCode ?? 400);
  const key = isLong ? 'errors.uri_too_long' : 'errors.bad_request';
  const body: ErrorEnvelope = { code: status, message: translate(locale, key), data: null };
  void reply.code(status).send(body);
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser rejects before there is a request (headers over
 * the size limit are a 431, anything else a 400), written on the socket as the envelope. There is no request
 * to negotiate with, so the language comes from an Accept-Language line in the bytes the parser was reading
 * (`rawPacket`: the headers sent before the oversized one, in practice), else the default language.
 */
export function clientErrorHandler(
  error: Error & { code?: string; rawPacket?: unknown },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const key = status === 431 ? 'errors.headers_too_large' : 'errors.bad_request';
  const locale = negotiateLocale(acceptLanguageIn(error.rawPacket));
  const body = JSON.stringify({ code: status, message: translate(locale, key), data: null });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** The Accept-Language value in raw request bytes (only the first 16 KiB are looked at), if any. */
function acceptLanguageIn(raw: unknown): string | undefined {
  if (!Buffer.isBuffer(raw)) return undefined;
  const head = raw.subarray(0, 16 * 1024).toString('latin1');
  return /\r\naccept-language:[ \t]*([^\r\n]{1,200})/i.exec(head)?.[1];
}

/**
 * Whether `text` nests arrays and objects deeper than `max`, by one pass over the characters (no recursion,
 * no parse): brackets inside strings, escaped quotes included, do not count. Malformed JSON is left to the
 * parser.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // 0x5c backslash (skips the escaped character), 0x22 quote, 0x5b/0x7b `[` `{`, 0x5d/0x7d `]` `}`.
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** True when a Content-Type names no charset or UTF-8 (`utf-8`, `utf8`, any case, quoted or not). */
export function isUtf8Charset(contentType: string | undefined): boolean {
  const match = /;\s*charset\s*=\s*("?)([^";\s]*)\1/i.exec(contentType ?? '');
  if (!match) return true;
  return /^utf-?8$/i.test(match[2]!);
}

/**
 * A route's URL as a regular expression over concrete paths: a `:param` segment (with or without a regex
 * of its own) is any one segment, `*` anything. Used only to tell a 405 from a 404, so a slightly wider
 * match than the router's costs nothing.
 */
function routePattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) =>
      segment === '*'
        ? '.*'
        : segment.includes(':')
          ? '[^/]+'
          : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}
