import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import { NO_COMPILERS, noSerializer, noValidator } from './no-compilers.ts';
import { swaggerOptions } from './openapi.ts';

const UI_PREFIX = '/api/docs/ui';

/**
 * `GET /api/docs` (the OpenAPI document; a browser is sent to the UI), `/api/docs/json` and the Swagger UI
 * under `/api/docs/ui/`, all built on their first request instead of at every start (issue 37 item 3):
 * @fastify/swagger (with yaml) and @fastify/swagger-ui are imported then. The app's routes are noted as
 * they are added (what @fastify/swagger's own onRoute hook keeps); the first request builds a Fastify of
 * its own that holds the two plugins and those routes with their documents (never their handlers), and the
 * UI's requests are answered by it (through `inject`) with the app's hooks (security headers, compression).
 * Register it before the routes it documents. Example: `registerApiDocs(app)`.
 */
export function registerApiDocs(app: FastifyInstance): void {
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    // As @fastify/swagger: Fastify's own HEAD twins of GET routes are not documented.
    if (route.method !== 'HEAD') routes.push(route);
  });
  let building: Promise<FastifyInstance> | null = null;
  const docs = () => {
    building ??= buildDocs(routes);
    building.catch(() => (building = null)); // a failed build is tried again on the next request
    return building;
  };
  const documentOf = async () => (await docs()).swagger();

  app.get('/api/docs', { schema: { hide: true } }, async (request, reply) => {
    const wantsHtml = (request.headers.accept ?? '').includes('text/html');
    if (wantsHtml) return reply.redirect(`${UI_PREFIX}/`);
    return documentOf();
  });
  // The document as JSON whatever the Accept header (the UI links it; a generator fetches it).
  app.get('/api/docs/json', { schema: { hide: true } }, documentOf);
  const ui = async (request: FastifyRequest, reply: FastifyReply) => {
    const answer = await (
      await docs()
    ).inject({
      method: 'GET',
      url: request.url,
      headers: pick(request.headers, ['accept', 'if-none-match', 'if-modified-since']),
    });
    // Not one of the UI's files: the app's own 404 (in the envelope).
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && KEPT_HEADERS.has(name)) void reply.header(name, value);
    }
    void reply.code(answer.statusCode);
    return answer.rawPayload.length ? reply.send(answer.rawPayload) : reply.send();
  };
  app.get(UI_PREFIX, { schema: { hide: true } }, ui);
  app.get(`${UI_PREFIX}/*`, { schema: { hide: true } }, ui);
}

/** The UI's answer headers passed on; the app's hooks add the rest (security headers, compression). */
const KEPT_HEADERS = new Set(['content-type', 'location', 'etag', 'last-modified', 'cache-control']);

function pick(
  headers: Record<string, string | string[] | undefined>,
  names: string[],
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name of names) if (headers[name] !== undefined) out[name] = headers[name]!;
  return out;
}

/** A Fastify with @fastify/swagger, the UI and `routes` (documents only), ready. */
async function buildDocs(routes: readonly RouteOptions[]): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const docs = Fastify({ schemaController: NO_COMPILERS, exposeHeadRoutes: false });
  docs.setValidatorCompiler(noValidator);
  docs.setSerializerCompiler(noSerializer);
  await docs.register(swagger, swaggerOptions());
  await docs.register(swaggerUi, { routePrefix: UI_PREFIX, staticCSP: false });
  // Only documented here: a UI request that reaches one (the SPA's `/*`) is the app's 404.
  const notHere = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(404).send();
  for (const route of routes) {
    // The UI's stand-ins above are the app's: the UI itself registers the real ones here.
    if (route.url === UI_PREFIX || route.url.startsWith(`${UI_PREFIX}/`)) continue;
    docs.route({
      method: route.method,
      url: route.url,
      ...(route.schema ? { schema: route.schema } : {}),
      ...(route.config ? { config: route.config } : {}),
      handler: notHere,
    });
  }
  await docs.ready();
  return docs;
}
