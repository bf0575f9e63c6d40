import crypto from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { negotiateLocale, translate, type Locale } from '../../locales/index.ts';
import { fieldErrors, issueKey } from '../../schemas/messages.ts';
import { AppError } from './errors.ts';
import type { ErrorEnvelope } from './envelope.ts';

declare module 'fastify' {
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
    if (body === '' || body === undefined) return done(null, undefined);
    defaultJson(req, body as string, done);
  });

  app.addHook('onRequest', async (request, reply) => {
    request.locale = negotiateLocale(request.headers['accept-language']);
    if (request.url.startsWith('/assets/')) return;
    const sent = request.cookies[XSRF_COOKIE];
    const hasValidCookie = typeof sent === 'string' && TOKEN_SHAPE.test(sent);
    reply.setCookie(XSRF_COOKIE, hasValidCookie ? sent : crypto.randomBytes(32).toString('base64url'), {
      path: '/',
      sameSite: 'lax',
      httpOnly: false,
      secure: request.protocol === 'https',
    });
    if (!UNSAFE_METHODS.has(request.method)) return;
    if (sent !== undefined && request.headers[XSRF_HEADER] !== sent) throw new AppError(403, 'errors.xsrf');
    if (!isSameOrigin(request)) throw new AppError(403, 'errors.xsrf');
  });

  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    const { status, body, headers } = toErrorResponse(error, request);
    if (status >= 500) request.log.error({ err: safeError(error) }, 'request failed');
    if (headers) void reply.headers(headers);
    void reply.code(status).send(body);
  });
}

/** Validates `input` with a zod schema; 422 with per-field messages in the request's language when it fails. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {}, { error: (iss) => issueKey(iss) });
  if (result.success) return result.data;
  throw new ZodAppError(result.error);
}

class ZodAppError extends AppError {
  readonly zod: z.ZodError;
  constructor(error: z.ZodError) {
    super(422, 'errors.validation');
    this.zod = error;
  }
}

/** The error envelope in the request's language. */
export function errorBody(
  request: FastifyRequest,
  status: number,
  key: string,
  params?: Record<string, unknown>,
  errors?: Record<string, string[]>,
): ErrorEnvelope {
  const body: ErrorEnvelope = { code: status, message: request.t(key, params), data: null };
  if (errors) body.errors = errors;
  return body;
}

function toErrorResponse(
  error: FastifyError | AppError | Error,
  request: FastifyRequest,
): { status: number; body: ErrorEnvelope; headers?: Record<string, string> } {
  const t = (key: string, params: Record<string, unknown> = {}) => request.t(key, params);
  if (error instanceof ZodAppError) {
    return { status: 422, body: errorBody(request, 422, error.key, {}, fieldErrors(error.zod, t)) };
  }
  if (error instanceof AppError) {
    const fields = error.fields
      ? Object.fromEntries(Object.entries(error.fields).map(([f, keys]) => [f, keys.map((k) => t(k))]))
      : undefined;
    return {
      status: error.status,
      body: errorBody(request, error.status, error.key, error.params, fields),
      headers: error.headers,
    };
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
  const e = error as Error & { code?: unknown; constraint?: unknown; table?: unknown };
  const isDbError = typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
  return isDbError
    ? { type: e.name, sqlstate: e.code, constraint: e.constraint, table: e.table }
    : { type: e.name, code: e.code, message: e.message.slice(0, 300) };
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
