import type { FastifyRequest } from 'fastify';
import type { Resource } from '../../resources/define.ts';
import { requirePermission } from '../core/principal.ts';
import type { Db } from '../db/index.ts';
import { permissionFor } from './access.ts';
import type { OperationContext } from './context.ts';
import type { ResourceHooksTable } from './hooks.ts';
import { fieldLabel } from './labels.ts';

/**
 * The operation context of one request on `resource`: `authorize` checks the caller's permission for the
 * action and names the caller (its address, user agent and the site's origin) as the actor. Used by the
 * resource routes (routes.ts) and the undo route (undo-route.ts).
 *
 * @example
 * const ctx = requestContext(request, { db, resource, registry, hooks, publicOrigin: null });
 */
export function requestContext(
  request: FastifyRequest,
  {
    db,
    resource,
    registry,
    hooks,
    publicOrigin,
  }: {
    db: Db;
    resource: Resource;
    registry: readonly Resource[];
    hooks: ResourceHooksTable;
    publicOrigin: string | null;
  },
): OperationContext {
  return {
    db,
    resource,
    registry,
    hooks,
    async authorize(action) {
      const principal = await requirePermission(request, permissionFor(resource, action));
      const ua = request.headers['user-agent'];
      return {
        userId: principal.userId,
        ip: request.ip,
        userAgent: typeof ua === 'string' ? ua : null,
        principal,
        origin: publicOrigin ?? `${request.protocol}://${request.host}`,
      };
    },
    label: (field) => fieldLabel(request, resource, field),
    lang: request,
  };
}
