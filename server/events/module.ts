import type { FastifyReply, FastifyRequest } from 'fastify';
import * as z from 'zod';
import { liveTokenHashes, resolveToken, sha256 } from '../credentials/tokens.ts';
import { AUTH_CHANNEL } from '../core/auth-cache.ts';
import { markLongLived } from '../core/drain.ts';
import { AppError } from '../core/errors.ts';
import { wireJson } from '../core/openapi.ts';
import { rawAnswer, route } from '../core/route.ts';
import {
  bearerToken,
  can,
  narrowToToken,
  requireUser,
  type Accounts,
  type Principal,
} from '../core/principal.ts';
import type { Db } from '../db/index.ts';
import type { AppModule } from '../core/app-module.ts';
import { hubFor, type StampedEvent } from './hub.ts';
import { producersFor } from './producers.ts';

/** A comment line every 15 s keeps proxies from closing an idle stream; it also re-checks the token. */
export const HEARTBEAT_MS = 15_000;
/** A stream whose client reads slower than this many buffered bytes is dropped (it reconnects). */
const MAX_BUFFERED = 1024 * 1024;
/** Streams one account may hold open on one server; the next is a 429 (API contract, Amendments). */
export const MAX_STREAMS_PER_USER = 10;
/** Streams one client address may hold open on one server (several people behind one NAT or proxy). */
export const MAX_STREAMS_PER_ADDRESS = 30;
/** Retry-After of that 429, in seconds: streams end when their page closes, not on a clock. */
const STREAMS_RETRY_AFTER_S = 30;

interface OpenStream {
  principal: Principal;
  /** sha256 of the stream's Bearer token: rechecked in one query whenever tokens or users change. */
  tokenHash: string;
  address: string;
  close(): void;
}

/**
 * `GET /api/v1/events`: a server-sent-events stream for the signed-in user (Bearer header, so the token stays
 * out of URLs). Every event is filtered by the subscriber's permissions; `Last-Event-ID` replays what this
 * server still holds, otherwise a `reset` event tells the client to refetch. Events arrive from every server
 * through LISTEN/NOTIFY (see hub.ts).
 */
export const eventsModule: AppModule = {
  name: 'events',
  async register(app, { db }) {
    const hub = hubFor(db);
    const producers = producersFor(db);
    const streams = new Set<OpenStream>();
    const refreshDemand = () =>
      producers.update((permission) => [...streams].some((s) => can(s.principal, permission)));

    // A revoked token (logout, password change or reset, a disabled or deleted user) ends its streams at
    // once on every server: the auth_changes notification (migration 0043) reaches each of them, and one
    // query tells which open streams' tokens are still live. Notifications that come while a check runs
    // are folded into one more check.
    let checking: Promise<void> | null = null;
    let again = false;
    const checkTokens = async () => {
      const open = [...streams];
      const live = await liveTokenHashes(
        db,
        [...new Set(open.map((s) => s.tokenHash))],
        app.accounts.enabledUsers,
      );
      for (const s of open) if (!live.has(s.tokenHash)) s.close();
    };
    const onAuthChange = () => {
      if (streams.size === 0) return;
      if (checking) {
        again = true;
        return;
      }
      checking = (async () => {
        do {
          again = false;
          await checkTokens().catch(() => undefined);
        } while (again);
      })().finally(() => {
        checking = null;
      });
    };
    let unlistenAuth: (() => Promise<void>) | null = null;

    app.addHook('onReady', async () => {
      await hub.start();
      // Without it the 15 s heartbeat still rechecks each stream's token.
      unlistenAuth = await db.listen(AUTH_CHANNEL, onAuthChange, { onGap: onAuthChange }).catch(() => null);
    });
    app.addHook('preClose', async () => {
      await unlistenAuth?.().catch(() => undefined);
      for (const s of [...streams]) s.close();
      producers.stopAll();
      await checking?.catch(() => undefined);
      await hub.stop();
    });

    route(app, {
      method: 'GET',
      url: '/api/v1/events',
      tags: ['system'],
      summary: 'Live events (server-sent events): record changes, monitor figures, job progress, log tail',
      description:
        'text/event-stream. Events: `record` {resource, id, action, actor_id} (an import or a bulk call: ' +
        'id null and `ids`, null when too many to list), `monitor`, `job`, `log`, ' +
        '`modules`, `reset` (replay not possible: refetch). A comment line every 15 s. Send ' +
        '`Last-Event-ID` to resume. A user holds at most 10 streams and an address 30 on each server ' +
        '(then 429 with Retry-After); revoking the token ends its streams.',
      errors: [429],
      openapi: { produces: ['text/event-stream'] },
      access: requireUser,
      responses: { 200: rawAnswer(wireJson(z.string().describe('A text/event-stream that stays open'))) },
      handler: async ({ principal, request, reply }) => {
        let ofUser = 0;
        let ofAddress = 0;
        for (const s of streams) {
          if (s.principal.userId === principal.userId) ofUser += 1;
          if (s.address === request.ip) ofAddress += 1;
        }
        if (ofUser >= MAX_STREAMS_PER_USER || ofAddress >= MAX_STREAMS_PER_ADDRESS) {
          throw new AppError(429, 'errors.too_many_streams', {
            headers: { 'retry-after': String(STREAMS_RETRY_AFTER_S) },
          });
        }
        openStream({ request, reply, db, principal, streams, refreshDemand });
      },
    });
  },
};

function openStream({
  request,
  reply,
  db,
  principal,
  streams,
  refreshDemand,
}: {
  request: FastifyRequest;
  reply: FastifyReply;
  db: Db;
  principal: Principal;
  streams: Set<OpenStream>;
  refreshDemand: () => void;
}): void {
  const hub = hubFor(db);
  const token = bearerToken(request) ?? '';
  // A shutdown does not wait for a stream to end by itself: the preClose hook above ends it.
  markLongLived(reply);
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string | string[]>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
  });
  raw.write('retry: 3000\n: connected\n\n');

  const stream: OpenStream = { principal, tokenHash: sha256(token), address: request.ip, close };
  let closed = false;
  const send = (event: StampedEvent) => {
    if (closed || !isAllowed(stream.principal, event)) return;
    const data = event.records ? visibleData(request.server.accounts, stream.principal, event) : event.data;
    if (data === undefined) return;
    const idLine = event.id ? `id: ${event.id}\n` : '';
    raw.write(`${idLine}event: ${event.type}\ndata: ${JSON.stringify(data)}\n\n`);
    if (raw.writableLength > MAX_BUFFERED) close();
  };

  const lastId = request.headers['last-event-id'];
  if (typeof lastId === 'string' && lastId) {
    const missed = hub.replaySince(lastId);
    if (missed) for (const event of missed) send(event);
    else raw.write(`event: reset\ndata: {}\n\n`);
  }
  const unsubscribe = hub.subscribe(send);
  streams.add(stream);
  refreshDemand();

  const heartbeat = setInterval(() => {
    raw.write(': ping\n\n');
    // Revoked tokens and role changes apply to open streams too.
    void resolveToken(db, token, request.server.accounts.enabledUsers)
      .then(async (owner) => {
        if (!owner) return close();
        const loaded = await request.server.accounts.loadPrincipal(db, owner);
        // A personal API token's stream stays within the token's scope (issue 31, item 6).
        stream.principal = owner.apiToken
          ? { ...loaded, ...narrowToToken(loaded, owner.apiToken.scope), apiToken: stream.principal.apiToken }
          : loaded;
        refreshDemand();
      })
      .catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();

  function close() {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    streams.delete(stream);
    refreshDemand();
    raw.end();
  }
  request.raw.on('close', close);
  raw.on('close', close);
  raw.on('error', close);
}

/**
 * A record event's data as a subscriber may see it (data scopes): undefined when its scope holds none of
 * the records, else the data with `ids` narrowed to those it holds.
 */
function visibleData(accounts: Accounts, principal: Principal, event: StampedEvent): unknown {
  const records = event.records!;
  const sees = (id: unknown) => {
    const audience = typeof id === 'string' ? records[id] : undefined;
    return audience !== undefined && accounts.seesRecord(principal, event.permission ?? '', audience);
  };
  const data = (event.data ?? {}) as { id?: unknown; ids?: unknown };
  if (Array.isArray(data.ids)) {
    const ids = data.ids.filter(sees);
    return ids.length ? { ...data, ids } : undefined;
  }
  return sees(data.id) ? data : undefined;
}

/** Whether a subscriber may see an event: its own user's events, and the permission it names. */
export function isAllowed(principal: Principal, event: { permission: string | null; userId?: string }) {
  if (event.userId !== undefined && event.userId !== principal.userId) return false;
  return event.permission === null || can(principal, event.permission);
}
