import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { negotiateLocale } from '../../locales/index.ts';
import { errorBody } from './http.ts';

/** Retry-After of the 503 a draining server answers, in seconds: another server (or this one restarted). */
export const DRAINING_RETRY_AFTER_S = 5;

export interface Drain {
  readonly isDraining: boolean;
  /**
   * Stops taking work: from now on every new request is answered 503 (in the envelope, with Retry-After and
   * `Connection: close`). Resolves once every request received before has been answered (long-lived ones,
   * event streams, excepted: the app's close ends them), or when `graceMs` is over; then the requests still
   * running are cut and counted.
   */
  drain(graceMs: number): Promise<{ cut: number }>;
}

const drains = new WeakMap<FastifyInstance, Drain>();
const longLived = new WeakSet<ServerResponse>();

/**
 * Graceful shutdown's first half (issue 28): tracks the requests in flight and, once `drain` is called,
 * answers new ones 503 while those already received finish, uploads included (their bodies keep arriving).
 * Registered before the app's other hooks (only the request id comes first), so a refused request runs no
 * other hook, handler or query. Each connection closes after its last answer, so kept-alive sockets do not
 * hold the process. Example:
 * `registerDrain(app); ...; await drainOf(app).drain(25_000); await app.close();`
 */
export function registerDrain(app: FastifyInstance): void {
  const inFlight = new Set<ServerResponse>();
  let isDraining = false;
  let settled: (() => void) | null = null;
  const waitedFor = () => [...inFlight].filter((res) => !longLived.has(res));

  // A callback hook (core/hosts.ts says why); the 503 is sent without calling `done`, so nothing else runs.
  app.addHook('onRequest', (request, reply, done) => {
    if (isDraining) {
      request.locale = negotiateLocale(request.headers['accept-language']);
      void reply
        .code(503)
        .headers({ 'retry-after': String(DRAINING_RETRY_AFTER_S), connection: 'close' })
        .send(errorBody(request, 503, 'errors.shutting_down'));
      return;
    }
    const res = reply.raw;
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      if (!isDraining) return;
      // Its connection is idle once this answer is out: close it (and any other idle one).
      setImmediate(() => app.server.closeIdleConnections());
      if (waitedFor().length === 0) settled?.();
    });
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (isDraining) void reply.header('connection', 'close');
    done(null, payload);
  });

  drains.set(app, {
    get isDraining() {
      return isDraining;
    },
    async drain(graceMs) {
      isDraining = true;
      app.server.closeIdleConnections();
      if (waitedFor().length > 0) {
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          settled = resolve;
          timer = setTimeout(resolve, graceMs);
        });
        clearTimeout(timer);
      }
      const cut = waitedFor();
      for (const res of cut) res.destroy();
      return { cut: cut.length };
    },
  });
}

/** The drain `registerDrain` set up on `app` (buildApp registers it on every app). */
export function drainOf(app: FastifyInstance): Drain {
  const drain = drains.get(app);
  if (!drain) throw new Error('registerDrain(app) was not called');
  return drain;
}

/**
 * Marks a request that never ends by itself (an event stream): a drain does not wait for it; the app's
 * close ends it (the events module's preClose hook).
 */
export function markLongLived(reply: FastifyReply): void {
  longLived.add(reply.raw);
}
