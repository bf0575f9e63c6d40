import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { filterMenu, settingsMenu, visibleMenu, type MenuItem } from '../../../schemas/permissions.ts';
import { ok } from '../../core/envelope.ts';
import { can, requireStaff } from '../../core/principal.ts';
import { route } from '../../core/route.ts';
import { servedPages, servedResources } from '../../engine/served.ts';
import { isMenuHidden } from '../system-tools/index.ts';

/** A menu item on the wire: the title translated, its locale key beside it for clients that translate. */
const menuItemSchema = z.object({
  name: z.string().nullable().optional(),
  title: z.string(),
  title_key: z.string(),
  icon: z.string().nullable().optional(),
  path: z.string().nullable().optional(),
  disabled: z.boolean(),
  // The JSON Schema stays flat (a recursive one would need a named component); the type below recurses.
  children: z.array(z.looseObject({}).describe('Menu items, the same shape')).optional(),
});
export type WireMenuItem = Omit<z.infer<typeof menuItemSchema>, 'children'> & {
  name: string | null;
  icon: string | null;
  path: string | null;
  children?: WireMenuItem[];
};

/**
 * `GET v1/system/menus`: the settings menu of schemas/permissions.ts, with a page for every served resource
 * (`settingsMenu`; `menu: false` ones left out), filtered by the caller's names exactly
 * as spec 6 says (children filtered recursively, nameless items kept, administrators see everything).
 */
export function registerMenuRoutes(app: FastifyInstance): void {
  route(app, {
    method: 'GET',
    url: '/api/v1/system/menus',
    tags: ['system'],
    summary: "The settings menu tree, filtered by the caller's permissions",
    access: requireStaff,
    responses: { 200: z.array(menuItemSchema) },
    handler: async ({ principal, request }) => {
      const toWire = (item: MenuItem): WireMenuItem => ({
        name: item.name ?? null,
        title: request.t(item.title),
        title_key: item.title,
        icon: item.icon ?? null,
        path: item.path ?? null,
        disabled: item.disabled ?? false,
        ...(item.children ? { children: item.children.map(toWire) } : {}),
      });
      return ok(
        filterMenu(
          visibleMenu(settingsMenu(servedResources(), undefined, servedPages())),
          (name) => can(principal, name) && !isMenuHidden(request, name),
        ).map(toWire),
      );
    },
  });
}
