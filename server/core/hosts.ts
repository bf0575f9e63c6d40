import os from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { negotiateLocale } from '../../locales/index.ts';
import type { Config } from '../config.ts';
import { AppError } from './errors.ts';

/** Loopback names, always accepted (health checks, a reverse proxy on the same machine, local use). */
const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The hosts a request may name: exact entries (`host:port`, or `host` for a Host header without a port),
 * hostnames (any port: loopback names, the listening address, ALLOWED_HOSTS names given without a port) and
 * `.example.com` suffixes (subdomains, any port).
 */
export interface HostRule {
  hosts: ReadonlySet<string>;
  hostnames: ReadonlySet<string>;
  suffixes: readonly string[];
}

/**
 * The configured hosts (API contract, Amendments, "Errors"): PUBLIC_ORIGIN's host, ALLOWED_HOSTS, the
 * loopback names and the listening address (every interface address when HOST is a wildcard).
 */
export function hostRule(config: Pick<Config, 'publicOrigin' | 'allowedHosts' | 'host'>): HostRule {
  const hosts = new Set<string>();
  const hostnames = new Set<string>(LOOPBACK);
  const suffixes: string[] = [];
  const addHostname = (name: string) => hostnames.add(normaliseHostname(name));
  if (config.publicOrigin) {
    // The public origin is one exact host and port: without a port in it, the scheme's default port, which
    // browsers leave out of the Host header (`admin.example.com`) and some clients write out (`:443`).
    const url = new URL(config.publicOrigin);
    const hostname = normaliseHostname(url.hostname);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    hosts.add(`${hostname}:${port}`);
    if (!url.port) hosts.add(hostname);
  }
  for (const entry of config.allowedHosts) {
    const value = entry.trim().toLowerCase();
    if (!value) continue;
    const parsed = value.startsWith('.') ? null : parseHost(value);
    if (value.startsWith('.')) suffixes.push(value);
    else if (parsed?.port) {
      // `name:port` is that port only; a default port also matches the Host header that leaves it out.
      hosts.add(parsed.host);
      if (parsed.port === '80' || parsed.port === '443') hosts.add(parsed.hostname);
    } else addHostname(value);
  }
  if (WILDCARD.has(config.host)) {
    for (const list of Object.values(os.networkInterfaces()))
      for (const address of list ?? []) addHostname(address.address.replace(/%.*$/, ''));
  } else {
    addHostname(config.host);
  }
  return { hosts, hostnames, suffixes };
}

/** True when `host` (a Host header value: name or address, optional port) is configured. */
export function isAllowedHost(rule: HostRule, host: string | undefined): boolean {
  const parsed = host ? parseHost(host) : null;
  if (!parsed) return false;
  if (rule.hosts.has(parsed.host) || rule.hostnames.has(parsed.hostname)) return true;
  return rule.suffixes.some((suffix) => parsed.hostname.endsWith(suffix));
}

/** At most this many allowed Host header values are remembered (a wildcard suffix allows many names). */
const MAX_REMEMBERED_HOSTS = 64;

/**
 * Answers 400 in the envelope for a request whose Host (or, behind TRUST_PROXY, X-Forwarded-Host) is not
 * configured, before anything else runs: links the server writes from the request (invitations, the WeChat
 * redirect_uri) can then only name a configured host.
 */
export function registerHostCheck(app: FastifyInstance, config: Config): void {
  const rule = hostRule(config);
  // Host headers already found allowed: a request with one of them skips the parse (a URL per request). Only
  // allowed values are kept, so the set is bounded by the configured hosts and their spellings.
  const allowed = new Set<string>();
  // A callback hook, not an async one: it runs on every request, and an async hook costs a promise and a
  // microtask each time (the same for the drain's and the transport's hooks).
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const host = request.host;
    if (allowed.has(host)) return done();
    if (isAllowedHost(rule, host)) {
      if (allowed.size < MAX_REMEMBERED_HOSTS) allowed.add(host);
      return done();
    }
    // Runs before the transport hook, so the envelope's language is negotiated here.
    request.locale = negotiateLocale(request.headers['accept-language']);
    done(new AppError(400, 'errors.bad_host'));
  });
}

function normaliseHostname(name: string): string {
  const lower = name.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

function parseHost(value: string): { host: string; hostname: string; port: string } | null {
  if (!/^[\w.\-:[\]]+$/.test(value)) return null;
  try {
    const url = new URL(`http://${value}`);
    if (url.pathname !== '/' || url.username || url.search) return null;
    const port = /:(\d+)$/.test(value) && !value.endsWith(']') ? value.slice(value.lastIndexOf(':') + 1) : '';
    return { host: port ? `${url.hostname}:${port}` : url.hostname, hostname: url.hostname, port };
  } catch {
    return null;
  }
}

/**
 * HSTS on every response served over TLS: directly, or behind TRUST_PROXY with `X-Forwarded-Proto: https`
 * (`request.protocol` honours the header only from a trusted proxy). Plain HTTP never gets it.
 */
export function registerHsts(app: FastifyInstance, config: Pick<Config, 'hstsMaxAge'>): void {
  if (config.hstsMaxAge <= 0) return;
  const value = `max-age=${config.hstsMaxAge}`;
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.protocol === 'https') void reply.header('strict-transport-security', value);
    done(null, payload);
  });
}
