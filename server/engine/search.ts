import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hasOperation, type Resource } from '../../resources/define.ts';
import { ok } from '../core/envelope.ts';
import { can, requireUser, type Principal } from '../core/principal.ts';
import { route } from '../core/route.ts';
import type { Db } from '../db/index.ts';
import { permissionFor } from './access.ts';
import { hiddenFields } from './field-access.ts';
import { hooksOf, type ResourceHooksTable } from './hooks.ts';
import { parseListQuery, qFields } from './list/query.ts';
import { loadRecords, selectColumns } from './list/records.ts';
import type { WireRecord } from './list/wire.ts';
import { ident } from './schema/fields.ts';
import { rowScope, scopeList, type RowScope } from './scope.ts';

/** One record found by `GET v1/search` (contract amendment "Lists that work like a spreadsheet"). */
export interface SearchHit {
  resource: string;
  id: string;
  label: string;
  sublabel: string | null;
}

/** Longest `q` accepted (characters, after trimming); longer is a 422. */
export const SEARCH_MAX_TEXT = 100;
/** Largest `limit`; larger is a 422. */
export const SEARCH_MAX_LIMIT = 50;
export const SEARCH_DEFAULT_LIMIT = 10;
/** The whole search answers within this long: resources still running then are left out of the answer. */
export const SEARCH_DEADLINE_MS = 2_000;

/**
 * Global search: the text in every `like` field (the resource's `q`, list/query.ts) of every resource the
 * caller may read, each through the engine's own list path (parseListQuery with the caller's hidden fields,
 * so a hidden field is neither matched nor shown; rowScope + scopeList, so the scope and the trash hold; the
 * trigram indexes serve the `ILIKE`), at most `limit` rows per resource, all resources at once. A resource
 * still running at the deadline is left out rather than holding the answer. The rows found are ranked: the
 * label equal to the text first, then labels starting with it, then other fields starting with it, then the
 * rest; ties by shorter label. Example: `await globalSearch({ db, resources, hooks, principal, text: 'li' })`.
 */
export async function globalSearch({
  db,
  resources,
  hooks,
  principal,
  text,
  limit = SEARCH_DEFAULT_LIMIT,
  deadlineMs = SEARCH_DEADLINE_MS,
}: {
  db: Db;
  resources: readonly Resource[];
  hooks: ResourceHooksTable;
  principal: Principal;
  text: string;
  limit?: number;
  deadlineMs?: number;
}): Promise<SearchHit[]> {
  const readable = resources.filter(
    (r) => hasOperation(r, 'list') && can(principal, permissionFor(r, 'read')),
  );
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
  });
  try {
    const found = await Promise.all(
      readable.map((resource) =>
        Promise.race([searchOne({ db, resource, resources, hooks, principal, text, limit }), deadline]),
      ),
    );
    return rank(
      found.flat().filter((h): h is Ranked => h !== null),
      text,
    )
      .slice(0, limit)
      .map(({ resource, id, label, sublabel }) => ({ resource, id, label, sublabel }));
  } finally {
    clearTimeout(timer);
  }
}

interface Ranked extends SearchHit {
  /** The searchable values shown or matched, lower-cased, for the ranking. */
  values: string[];
}

async function searchOne({
  db,
  resource,
  resources,
  hooks,
  principal,
  text,
  limit,
}: {
  db: Db;
  resource: Resource;
  resources: readonly Resource[];
  hooks: ResourceHooksTable;
  principal: Principal;
  text: string;
  limit: number;
}): Promise<Ranked[]> {
  const hidden = hiddenFields(principal, resource);
  const fields = qFields(resource, hidden).map((f) => f.name);
  if (fields.length === 0) return [];
  const scope = await rowScope(db, resource, principal);
  const statement = searchStatement({ resource, hooks, hidden, scope, text, limit });
  const { rows } = await db.query<Record<string, unknown>>(statement.sql, statement.params);
  const records = await loadRecords(db, { resource, registry: resources, hooks, viewer: principal }, rows);
  const representation = resource.options.recordRepresentation;
  const labelField = representation && !hidden.has(representation) ? representation : null;
  return records.map((record) => hitOf(resource, record, { labelField, fields, text }));
}

/**
 * The one statement a resource's search sends: the list path's own `q` WHERE (hidden fields left out) in
 * the caller's scope over the live rows, in the resource's default order, `limit` rows. Exported for the
 * test that EXPLAINs it.
 */
export function searchStatement({
  resource,
  hooks,
  hidden,
  scope,
  text,
  limit,
}: {
  resource: Resource;
  hooks: ResourceHooksTable;
  hidden: ReadonlySet<string>;
  scope: RowScope;
  text: string;
  limit: number;
}): { sql: string; params: unknown[] } {
  const q = parseListQuery(resource, { q: text }, { filters: hooksOf(hooks, resource).filters, hidden });
  const scoped = scopeList(resource, q, scope);
  const from = ident(resource.table);
  return {
    sql: `SELECT ${selectColumns(resource)} FROM ${from} ${scoped.where} ${scoped.orderBy} LIMIT ${limit}`,
    params: scoped.params,
  };
}

function hitOf(
  resource: Resource,
  record: WireRecord,
  { labelField, fields, text }: { labelField: string | null; fields: string[]; text: string },
): Ranked {
  const textOf = (name: string) => {
    const v = record[name];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : '';
  };
  const needle = text.toLowerCase();
  const others = fields.filter((f) => f !== labelField && textOf(f));
  const labelOf = labelField ?? others[0] ?? null;
  const label = (labelOf && textOf(labelOf)) || `#${record.id}`;
  const rest = others.filter((f) => f !== labelOf);
  const matching = rest.find((f) => textOf(f).toLowerCase().includes(needle));
  const sub = matching ?? rest[0];
  return {
    resource: resource.name,
    id: record.id,
    label,
    sublabel: sub ? textOf(sub) : null,
    values: [label, ...rest.map(textOf)].map((v) => v.toLowerCase()),
  };
}

function rank(hits: Ranked[], text: string): Ranked[] {
  const needle = text.toLowerCase();
  const score = (h: Ranked) => {
    const [label = '', ...rest] = h.values;
    if (label === needle) return 0;
    if (label.startsWith(needle)) return 1;
    if (rest.some((v) => v === needle || v.startsWith(needle))) return 2;
    return 3;
  };
  return hits
    .map((h, order) => ({ h, order, score: score(h) }))
    .sort((a, b) => a.score - b.score || a.h.label.length - b.h.label.length || a.order - b.order)
    .map(({ h }) => h);
}

const SEARCH_URL = '/api/v1/search';

const searchHitSchema = z
  .object({
    resource: z.string(),
    id: z.string(),
    label: z.string(),
    sublabel: z.string().nullable(),
  })
  .meta({ 'x-name': 'SearchHit' });

/**
 * `GET v1/search?q=&limit=` for a signed-in user (a caller who may read nothing gets `[]`): the command
 * palette's records. Mounted once per app, over the resources of the first resources module (as the
 * explain route, explain.ts).
 */
export function registerSearchRoute(
  app: FastifyInstance,
  { db, resources, hooks }: { db: Db; resources: readonly Resource[]; hooks: ResourceHooksTable },
): void {
  if (app.hasRoute({ method: 'GET', url: SEARCH_URL })) return;
  route(app, {
    method: 'GET',
    url: SEARCH_URL,
    tags: ['search'],
    summary: 'Find records by text across every resource the caller may read',
    description:
      "The text in the representation and `like` fields of each readable resource, within the caller's " +
      'data scope and field access, trashed records left out; exact and prefix matches first.',
    access: requireUser,
    query: z.object({
      q: z.string().trim().min(1).max(SEARCH_MAX_TEXT),
      limit: z.coerce.number().int().min(1).max(SEARCH_MAX_LIMIT).optional(),
    }),
    responses: { 200: z.array(searchHitSchema).meta({ 'x-name': 'SearchResults' }) },
    handler: async ({ query, principal }) =>
      ok(
        await globalSearch({
          db,
          resources,
          hooks,
          principal,
          text: query.q,
          limit: query.limit ?? SEARCH_DEFAULT_LIMIT,
        }),
      ),
  });
}
