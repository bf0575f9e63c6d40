import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal.ts';

/** Who did it and from where, for the audit row. */
export interface Actor {
  userId: string;
  ip: string | null;
  userAgent: string | null;
  /** The caller's staff record and permission names, for hooks that enforce who may write what. */
  principal?: Principal;
  /** `<scheme>://<host>` of the request, for links a hook hands out. */
  origin?: string;
  /**
   * The bulk call or import this write belongs to (server/engine/undo.ts): its audit rows are linked to it,
   * so the whole operation can be undone.
   */
  operationId?: string;
}

/** The actor of a signed-in request: the caller's user id, address and user agent. */
export function actorOf(request: FastifyRequest, userId: string): Actor {
  const ua = request.headers['user-agent'];
  return { userId, ip: request.ip, userAgent: typeof ua === 'string' ? ua : null };
}
