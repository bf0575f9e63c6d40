import * as z from 'zod';
import { defineResource, field, reference } from '../../../resources/define.ts';

/** A parent with an inline has-many list (`items`), for the engine's form tests. */
export const kits = defineResource({
  name: 'kits',
  endpoint: 'v1/test/kits',
  permission: 'test.kits',
  recordRepresentation: 'name',
  schema: z.object({
    name: field(z.string().trim().min(1).max(50), { search: 'like', list: true }),
  }),
  hasMany: { items: { resource: 'kit_items', foreignKey: 'kit_id', inline: true } },
});

/** The children of `kits`: written with their kit. */
export const kitItems = defineResource({
  name: 'kit_items',
  endpoint: 'v1/test/kit-items',
  permission: 'test.kit_items',
  recordRepresentation: 'name',
  schema: z.object({
    kit_id: reference('kits', { required: true }),
    name: field(z.string().trim().min(1).max(50), { search: 'like' }),
    quantity: field(z.int().min(0).default(1), {}),
  }),
});
