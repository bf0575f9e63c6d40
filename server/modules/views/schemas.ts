import * as z from 'zod';
import { wireId, wireTime } from '../../../schemas/wire.ts';

/** How far a saved view is shared (contract amendment "Lists that work like a spreadsheet"). */
export const SHARINGS = ['private', 'roles', 'everyone'] as const;
export const DENSITIES = ['compact', 'comfortable'] as const;

const queryText = z.string().max(4000);

/** A list's query as the list query language writes it; validated against the resource by its own parser. */
export const savedViewQuerySchema = z
  .object({
    search: queryText.optional(),
    searchFields: queryText.optional(),
    searchJoin: z.enum(['and', 'or']).optional(),
    orderBy: z.string().max(200).optional(),
    sortedBy: z.enum(['asc', 'desc']).optional(),
    q: z.string().max(200).optional(),
  })
  .strict()
  .meta({ 'x-name': 'SavedViewQuery' });

/** One saved view as the caller sees it: `pinned` and `is_default` are the caller's own choices. */
export const savedViewSchema = z
  .object({
    id: wireId,
    resource: z.string(),
    name: z.string(),
    query: savedViewQuerySchema,
    columns: z.array(z.string()),
    density: z.enum(DENSITIES),
    shared: z.enum(SHARINGS),
    role_ids: z.array(wireId),
    pinned: z.boolean(),
    is_default: z.boolean(),
    owner_id: wireId,
    /** The caller may rename, re-share or delete it (its owner, or an administrator). */
    can_edit: z.boolean(),
    created_at: wireTime,
    updated_at: wireTime,
  })
  .meta({ 'x-name': 'SavedView' });
export type SavedView = z.infer<typeof savedViewSchema>;

const name = z.string().trim().min(1).max(100);
const columns = z.array(z.string().min(1).max(100)).max(200);
const roleIds = z.array(z.string().regex(/^\d{1,18}$/)).max(200);

export const savedViewCreateSchema = z
  .object({
    resource: z.string().min(1).max(100),
    name,
    query: savedViewQuerySchema.default({}),
    columns: columns.default([]),
    density: z.enum(DENSITIES).default('compact'),
    shared: z.enum(SHARINGS).default('private'),
    role_ids: roleIds.default([]),
    pinned: z.boolean().default(false),
    is_default: z.boolean().default(false),
  })
  .strict()
  .meta({ 'x-name': 'SavedViewCreate' });
export type SavedViewCreate = z.infer<typeof savedViewCreateSchema>;

export const savedViewUpdateSchema = z
  .object({
    name: name.optional(),
    query: savedViewQuerySchema.optional(),
    columns: columns.optional(),
    density: z.enum(DENSITIES).optional(),
    shared: z.enum(SHARINGS).optional(),
    role_ids: roleIds.optional(),
    pinned: z.boolean().optional(),
    is_default: z.boolean().optional(),
  })
  .strict()
  .meta({ 'x-name': 'SavedViewUpdate' });
export type SavedViewUpdate = z.infer<typeof savedViewUpdateSchema>;

/** A pinned view's count, or why it cannot be counted (its query no longer validates for this caller). */
export const savedViewCountSchema = z
  .union([z.number().int(), z.object({ error: z.literal('invalid_query'), message: z.string() })])
  .meta({ 'x-name': 'SavedViewCount' });

export const savedViewCountsSchema = z
  .record(z.string(), savedViewCountSchema)
  .meta({ 'x-name': 'SavedViewCounts' });

export const savedViewListQuery = z.object({ resource: z.string().max(100).optional() });
export const savedViewParams = z.object({ id: z.string().regex(/^\d{1,18}$/) });
