import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

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

/**
 * Helmet's security headers, computed once at start-up and set on every answer by one cheap hook.
 * @fastify/helmet rebuilds helmet's middleware from its options on every request (two hooks, the CSP string
 * joined again each time); with static options (no nonces, no per-route settings, no directive functions)
 * its headers never change, so they are taken once from helmet itself and the product gives up none of them.
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

/**
 * The headers @fastify/helmet sets with `options` on an answer, in the order it sets them: its plugin is run
 * once on a stand-in for the Fastify instance (what it registers: reply decorators and hooks), then its
 * request hooks on a stand-in answer that records the headers. Building a throwaway Fastify app and a probe
 * request for this cost more than the rest of the security setup (issue 37 item 3); the output is the same
 * (security-headers.test.ts compares it with a real app's answer).
 */
export async function helmetHeaders(options: FastifyHelmetOptions): Promise<Record<string, string>> {
  const hooks: ((...args: unknown[]) => unknown)[] = [];
  const instance = {
    hasReplyDecorator: () => false,
    decorateReply: () => instance,
    addHook(name: string, hook: (...args: unknown[]) => unknown) {
      if (name === 'onRequest') hooks.push(hook);
      return instance;
    },
  };
  await (helmet as unknown as (app: unknown, opts: FastifyHelmetOptions) => Promise<void>)(instance, options);
  const headers: Record<string, string> = {};
  const raw = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  const request = { raw: {}, routeOptions: { config: {} } };
  const reply = { raw };
  for (const hook of hooks) {
    // Callback or async: helmet's middleware sets its headers synchronously either way.
    await new Promise<void>((resolve, reject) => {
      const returned = hook(request, reply, (error?: unknown) => (error ? reject(error) : resolve()));
      if (returned instanceof Promise) returned.then(() => resolve(), reject);
    });
  }
  return headers;
}
