import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/app-module.ts';
import type { Client } from './activity.ts';

/** Where an account-keyed limiter reads its key from (set just before the limiter is called). */
export const accountKeys = new WeakMap<FastifyRequest, string>();

/** A limiter made with `app.createRateLimit`: counts one hit and reports whether the window is exceeded. */
export type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** What every account route file receives: the scoped app (rate-limit plugin registered) and the app context. */
export interface AuthScope extends AppContext {
  app: FastifyInstance;
}

/** Counts one hit on an account-keyed limiter for `key`. */
export async function hitAccountLimiter(
  limiter: Limiter,
  { request, key }: { request: FastifyRequest; key: string },
): Promise<{ isExceeded: boolean; ttl: number }> {
  accountKeys.set(request, key);
  const result = await limiter(request);
  if (result.isAllowed) return { isExceeded: false, ttl: 0 };
  return { isExceeded: result.isExceeded, ttl: result.ttl };
}

/** Key generator for account-keyed limiters. */
export function accountKeyOf(request: FastifyRequest): string {
  const key = accountKeys.get(request);
  if (!key) throw new Error('account limiter called without a key');
  return key;
}

/** Per-address route limiter config for `config.rateLimit`. */
export function perAddress(name: string, limit: { max: number; timeWindow: number }) {
  return { ...limit, keyGenerator: (request: FastifyRequest) => `${name}:ip:${request.ip}` };
}

/** The caller's address and user agent, for the operations (which never see the request). */
export function clientOf(request: FastifyRequest): Client {
  const userAgent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof userAgent === 'string' ? userAgent : undefined };
}
