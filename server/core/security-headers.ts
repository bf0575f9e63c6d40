import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { NO_COMPILERS } from './no-compilers.ts';

/** The product's helmet settings: its Content-Security-Policy; HSTS is core/hosts.ts's (TLS only). */
export const SECURITY_HEADERS: FastifyHelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      // WeChat profile pictures are shown from WeChat's image hosts.
      imgSrc: ["'self'", 'data:', 'blob:', 'https://thirdwx.qlogo.cn', 'https://wx.qlogo.cn'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  strictTransportSecurity: false,
};

/** Headers Fastify itself writes on an answer; everything else a probe answer carries came from helmet. */
const FASTIFY_OWN = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * Helmet's security headers, computed once at start-up and set on every answer by one cheap hook.
 * @fastify/helmet rebuilds helmet's middleware from its options on every request (two hooks, the CSP string
 * joined again each time); with static options (no nonces, no per-route settings, no directive functions)
 * its headers never change, so they are taken once from helmet itself (a probe answer of a throwaway app
 * with the same options) and the product gives up none of them.
 * Example: `await registerSecurityHeaders(app, { contentSecurityPolicy: { directives: { ... } } })`.
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  options: FastifyHelmetOptions,
): Promise<Record<string, string>> {
  const headers = await helmetHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    void reply.headers(headers);
    done();
  });
  return headers;
}

/** The headers @fastify/helmet sets with `options` on an answer (its own output, read from a probe). */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false, schemaController: NO_COMPILERS });
  try {
    await probe.register(helmet, options);
    probe.get('/', async () => '');
    const res = await probe.inject({ url: '/' });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (FASTIFY_OWN.has(name) || value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    }
    return headers;
  } finally {
    await probe.close();
  }
}
