import * as z from 'zod';
import { actorOf } from '../../core/activity.ts';
import { ok } from '../../core/envelope.ts';
import { requireStaff } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import type { FastifyInstance } from 'fastify';
import { countPinnedViews } from './counts.ts';
import { createView, deleteView, listViews, updateView, type ViewsContext } from './operations.ts';
import {
  savedViewCountsSchema,
  savedViewCreateSchema,
  savedViewListQuery,
  savedViewParams,
  savedViewSchema,
  savedViewUpdateSchema,
} from './schemas.ts';

const BASE = '/api/v1/user/views';

/** `v1/user/views` and `v1/user/views/counts` (contract amendment "Lists that work like a spreadsheet"). */
export function registerViewRoutes(app: FastifyInstance, ctx: ViewsContext): void {
  route(app, {
    method: 'GET',
    url: BASE,
    tags: ['views'],
    summary: 'The saved views the caller sees: its own and those shared with it, of lists it may read',
    access: requireStaff,
    query: savedViewListQuery,
    responses: { 200: z.array(savedViewSchema) },
    handler: async ({ principal, query }) =>
      ok(await listViews(ctx, { principal, resource: query.resource })),
  });

  route(app, {
    method: 'GET',
    url: `${BASE}/counts`,
    tags: ['views'],
    summary: "The record count of each of the caller's pinned views, within the caller's scope",
    description:
      'Each view is counted by the list operation as the caller. A view whose stored query no longer ' +
      'validates (a field removed or hidden from the caller) answers `{ error: "invalid_query", message }`.',
    access: requireStaff,
    responses: { 200: savedViewCountsSchema },
    handler: async ({ principal, request }) => ok(await countPinnedViews(ctx, { principal, request })),
  });

  route(app, {
    method: 'POST',
    url: BASE,
    tags: ['views'],
    summary: "Save a list's filters, sort, columns and density under a name",
    access: requireStaff,
    body: savedViewCreateSchema,
    responses: { 201: savedViewSchema },
    handler: async ({ principal, body, request, reply }) =>
      reply
        .code(201)
        .send(ok(await createView(ctx, { actor: actorOf(request, principal.userId), principal, body }))),
  });

  route(app, {
    method: 'PATCH',
    url: `${BASE}/:id`,
    tags: ['views'],
    summary: 'Change a saved view (its owner or an administrator), or pin it or make it the caller’s default',
    access: requireStaff,
    params: savedViewParams,
    body: savedViewUpdateSchema,
    errors: [404],
    responses: { 200: savedViewSchema },
    handler: async ({ principal, params, body, request }) =>
      ok(
        await updateView(ctx, { actor: actorOf(request, principal.userId), principal, id: params.id, body }),
      ),
  });

  route(app, {
    method: 'DELETE',
    url: `${BASE}/:id`,
    tags: ['views'],
    summary: 'Delete a saved view (its owner or an administrator)',
    access: requireStaff,
    params: savedViewParams,
    errors: [404],
    responses: { 200: null },
    handler: async ({ principal, params, request }) => {
      await deleteView(ctx, { actor: actorOf(request, principal.userId), principal, id: params.id });
      return ok(null);
    },
  });
}
