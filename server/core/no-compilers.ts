import type { FastifyServerOptions } from 'fastify';

/**
 * Route schemas only document the API (OpenAPI); zod inside each operation validates, and answers are
 * written with JSON.stringify. These compilers do nothing, and handing them to Fastify as its
 * `schemaController` keeps it from loading ajv and fast-json-stringify at all: about a third of a cold
 * start's module loading (issue 37 item 3). Every Fastify instance of the server takes them. Example:
 * `Fastify({ schemaController: NO_COMPILERS })`, then `app.setValidatorCompiler(noValidator)`.
 */
export const noValidator = () => (data: unknown) => ({ value: data });
export const noSerializer = () => (data: unknown) => JSON.stringify(data);

/** Fastify's compiler factories, replaced before it builds them (their types name ajv's and fast-json-stringify's). */
export const NO_COMPILERS = {
  compilersFactory: { buildValidator: () => noValidator, buildSerializer: () => noSerializer },
} as unknown as NonNullable<FastifyServerOptions['schemaController']>;
