import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { logSinkFor } from './cluster/nodes.ts';
import { registerDrain } from './core/drain.ts';
import { registerHostCheck, registerHsts } from './core/hosts.ts';
import { createLogger, flushLogFiles, withRedactedRequests } from './core/logger.ts';
import { NO_COMPILERS, noSerializer, noValidator } from './core/no-compilers.ts';
import { clientErrorHandler, errorBody, frameworkErrors, registerHttpContract } from './core/http.ts';
import { registerApiDocs } from './core/api-docs.ts';
import { registerPrincipal } from './core/principal.ts';
import { SECURITY_HEADERS, registerSecurityHeaders } from './core/security-headers.ts';
import { accounts } from './engine/accounts.ts';
import type { Db } from './db/index.ts';
import { modules as defaultModules } from './modules/index.ts';
import { openStorage, type FileStorage } from './storage/index.ts';
import type { AppModule } from './core/app-module.ts';

export interface BuildAppOptions {
  db: Db;
  config: Config;
  logger?: Logger;
  modules?: AppModule[];
  /** Asset storage; by default the one the configuration names (closed with the app). */
  storage?: FileStorage;
  /** Background work starts once the app listens (AppContext.startsAfterListen); startServer sets it. */
  startsAfterListen?: boolean;
}

/**
 * Builds the whole server without listening, so tests run it in process. Example:
 * `const app = await buildApp({ db, config }); const res = await app.inject({ url: '/api/v1' });`
 */
export async function buildApp({
  db,
  config,
  logger,
  modules = defaultModules,
  storage: givenStorage,
  startsAfterListen = false,
}: BuildAppOptions): Promise<FastifyInstance> {
  const log = withRedactedRequests(
    logger ??
      createLogger({
        level: config.logLevel,
        logDir: config.logToFile ? path.join(config.dataDir, 'logs') : null,
        // Warn and worse also go to the database, so another node's system logs page can show them.
        extraStreams: [{ level: 'warn', stream: logSinkFor(db) }],
      }),
    modules.flatMap((m) => m.sensitiveQuery ?? []),
  );
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : crypto.randomUUID();
    },
    requestIdHeader: false,
    // One line per request, written once the answer is sent (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Errors raised before any hook (414, 431, bad URLs) answer in the envelope too (core/http.ts).
    frameworkErrors,
    clientErrorHandler,
    ajv: { customOptions: { coerceTypes: false } },
    // Route schemas only document (below): no ajv nor fast-json-stringify is ever loaded (core/no-compilers.ts).
    schemaController: NO_COMPILERS,
  });
  // Route schemas document the API (OpenAPI); zod inside each operation does the validating, so that
  // messages are localized and the same schema serves the client.
  app.setValidatorCompiler(noValidator);
  app.setSerializerCompiler(noSerializer);

  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  // The request log: one line per request once it is answered, with what Fastify's "incoming request" and
  // "request completed" lines held together (the request, its URL redacted by withRedactedRequests, the status
  // and the time it took), and the signed-in user's id when the request had one.
  // Its fields are all the server's own (the req serializer keeps no header and redacts the URL's sensitive
  // query values), so it is written by a child without pino's path redaction, which cost more than the rest
  // of the line (about 6 of 8 µs); every other line keeps it.
  const requestLog = log.child({}, { redact: { paths: [] } });
  app.addHook('onResponse', (request, reply, done) => {
    requestLog.info(
      {
        reqId: request.id,
        req: request,
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
        userId: request.signedInUserId,
      },
      'request completed',
    );
    done();
  });
  // Before every other hook: a draining server answers new requests 503 and runs nothing else for them.
  registerDrain(app);
  registerHostCheck(app, config);
  registerHsts(app, config);

  // JSON answers (and other compressible text) are compressed on the fly; the SPA's assets are compressed
  // once at build time (vite.config.ts) and sent as they are. Registered before every route, as the plugin
  // only hooks routes added after it.
  await app.register(compress, { encodings: ['br', 'gzip'], threshold: 1024, globalDecompression: false });
  await app.register(cookie);
  // Helmet's headers, computed once (core/security-headers.ts), not rebuilt from their options per request.
  await registerSecurityHeaders(app, SECURITY_HEADERS);
  registerHttpContract(app);
  registerPrincipal(app, db, accounts);

  // /api/docs and its UI, built on their first request (core/api-docs.ts); before the routes it documents.
  registerApiDocs(app);

  const storage = givenStorage ?? openStorage(config, db);
  if (!givenStorage) app.addHook('onClose', () => storage.close());
  const ctx = { db, config, log, storage, startsAfterListen };
  for (const mod of modules) await mod.register(app, ctx);

  registerSpa(app, config.distDir);
  // The log file's queued lines are written before the process goes on to exit (graceful shutdown); what
  // is logged after this is written synchronously at exit (core/logger.ts).
  if (!logger) app.addHook('onClose', flushLogFiles);
  return app;
}

/** Serves the built SPA: hashed assets cached for a year, index.html never cached, history fallback. */
function registerSpa(app: FastifyInstance, distDir: string): void {
  const indexFile = path.join(distDir, 'index.html');
  const hasSpa = fs.existsSync(indexFile);
  if (hasSpa) {
    void app.register(fastifyStatic, {
      root: distDir,
      index: 'index.html',
      wildcard: true,
      // The build writes .br/.gz beside each asset; the best one the browser accepts is sent.
      preCompressed: true,
      // Our own cache-control below; the plugin's default would overwrite it with max-age=0.
      cacheControl: false,
      setHeaders(res, filePath) {
        const isHashed = filePath.startsWith(path.join(distDir, 'assets') + path.sep);
        res.setHeader('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/');
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/assets/');
    if (!isApi && isPage && hasSpa) {
      return reply
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .sendFile('index.html');
    }
    // A known API path asked with a method it does not have (PUT on a collection): 405 naming the others.
    const allowed = isApi ? app.allowedMethods(pathname) : [];
    if (allowed.length > 0) {
      const allow = allowed.sort().join(', ');
      return reply
        .code(405)
        .header('allow', allow)
        .send(errorBody(request, 405, 'errors.method_not_allowed', { method: request.method, allow }));
    }
    return reply.code(404).send(errorBody(request, 404, 'errors.route_not_found'));
  });
}
