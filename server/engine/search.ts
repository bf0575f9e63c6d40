import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { hasOperation, type Resource } from '../../resources/define.ts';
import { ok } from '../core/envelope.ts';
import { can, requireUser, type Principal } from '../core/principal.ts';
import { route } from '../core/route.ts';
import type { Db } from '../db/index.ts';
import { permissionFor } from './access.ts';
import { hiddenFields } from './field-access.ts';
import { hooksOf, type ResourceHooksTable } from './hooks.ts';
import { escapeLike, parseListQuery, qFields } from './list/query.ts';
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
/** One resources module's part of the search: its resources and their hooks (module.ts). */
export interface SearchSource {
  resources: readonly Resource[];
  hooks: ResourceHooksTable;
}

/**
 * Global search: the text in every `like` field (the resource's `q`, list/query.ts) of every resource of
 * every resources module the caller may read, each through the engine's own list path (parseListQuery with
 * the caller's hidden fields, so a hidden field is neither matched nor shown; rowScope + scopeList, so the
 * scope and the trash hold; the trigram indexes serve the `ILIKE`), all resources at once. Each resource's
 * statement ranks its matches itself (searchStatement: the label equal to the text first, then labels
 * starting with it, then another field starting with it, then the rest; shorter labels first) and answers
 * its best `limit`: the best `limit` of all are among them, so the merged answer, ranked the same way (then
 * by resource name and id), is the ranking over every match. A resource name met again in a later module
 * is searched once. Example: `await globalSearch({ db, sources: [{ resources, hooks }], principal, text: 'li' })`.
 */
export async function globalSearch({
  db,
  sources,
  principal,
  text,
  limit = SEARCH_DEFAULT_LIMIT,
}: {
  db: Db;
  sources: readonly SearchSource[];
  principal: Principal;
  text: string;
  limit?: number;
}): Promise<SearchHit[]> {
  const seen = new Set<string>();
  const searched: { resource: Resource; source: SearchSource }[] = [];
  for (const source of sources)
    for (const resource of source.resources) {
      if (seen.has(resource.name)) continue;
      seen.add(resource.name);
      if (hasOperation(resource, 'list') && can(principal, permissionFor(resource, 'read')))
        searched.push({ resource, source });
    }
  const found = await Promise.all(
    searched.map(({ resource, source }) =>
      searchOne({ db, resource, resources: source.resources, hooks: source.hooks, principal, text, limit }),
    ),
  );
  return rank(found.flat())
    .slice(0, limit)
    .map(({ resource, id, label, sublabel }) => ({ resource, id, label, sublabel }));
}

interface Ranked extends SearchHit {
  /** 0 label equal to the text, 1 label starting with it, 2 another field starting with it, 3 the rest. */
  score: number;
}

/** The column of a search row holding its rank (searchStatement), read before the records are built. */
const SCORE = '__score';

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
  const scores = new Map(rows.map((r) => [String(r.id), Number(r[SCORE])]));
  const records = await loadRecords(db, { resource, registry: resources, hooks, viewer: principal }, rows);
  const labelField = labelFieldOf(resource, hidden);
  return records.map((record) => ({
    ...hitOf(resource, record, { labelField, fields, text }),
    score: scores.get(String(record.id)) ?? 3,
  }));
}

/** The field whose value is a record's label: its representation, unless the caller may not see it. */
function labelFieldOf(resource: Resource, hidden: ReadonlySet<string>): string | null {
  const representation = resource.options.recordRepresentation;
  return representation && !hidden.has(representation) ? representation : null;
}

/**
 * The one statement a resource's search sends: the list path's own `q` WHERE (hidden fields left out) in
 * the caller's scope over the live rows, ranked (see globalSearch; the rank is the `__score` column; `ILIKE`
 * without wildcards is the case-insensitive equality), then the shorter label, then the id: `limit` rows.
 * The label is the representation's value, or the first searched field with a value, or `#<id>`, as the
 * answer's (hitOf). Exported for the test that EXPLAINs it.
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
  const params = [...scoped.params];
  const exact = `$${params.push(escapeLike(text))}`;
  const prefix = `$${params.push(`${escapeLike(text)}%`)}`;
  const fields = qFields(resource, hidden).map((f) => `NULLIF(${ident(f.name)}::text, '')`);
  const labelField = labelFieldOf(resource, hidden);
  const id = `'#' || ${from}."id"::text`;
  const label = labelField
    ? `COALESCE(NULLIF(${ident(labelField)}::text, ''), ${id})`
    : `COALESCE(${[...fields, id].join(', ')})`;
  const others = fields.map((f) => `${f} ILIKE ${prefix}`).join(' OR ') || 'FALSE';
  const score = `CASE WHEN ${label} ILIKE ${exact} THEN 0 WHEN ${label} ILIKE ${prefix} THEN 1 WHEN ${others} THEN 2 ELSE 3 END`;
  return {
    sql:
      `SELECT ${selectColumns(resource)}, ${score} AS ${ident(SCORE)} FROM ${from} ${scoped.where} ` +
      `ORDER BY ${ident(SCORE)}, length(${label}), ${from}."id" LIMIT ${limit}`,
    params,
  };
}

function hitOf(
  resource: Resource,
  record: WireRecord,
  { labelField, fields, text }: { labelField: string | null; fields: string[]; text: string },
): SearchHit {
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
  };
}

/** The merged answer's order: rank, shorter label, resource name, id (as numbers). */
function rank(hits: Ranked[]): Ranked[] {
  const byId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);
  return [...hits].sort(
    (a, b) =>
      a.score - b.score ||
      a.label.length - b.label.length ||
      (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0) ||
      byId(a.id, b.id),
  );
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

/** The modules searched by an app's route, by the app's server (shared by its encapsulated instances). */
const sourcesByApp = new WeakMap<object, SearchSource[]>();

/**
 * `GET v1/search?q=&limit=` for a signed-in user (a caller who may read nothing gets `[]`): the command
 * palette's records. Mounted once per app by the first resources module; every resources module's
 * resources are searched (each module calls this with its own).
 */
export function registerSearchRoute(
  app: FastifyInstance,
  { db, resources, hooks }: { db: Db; resources: readonly Resource[]; hooks: ResourceHooksTable },
): void {
  const known = sourcesByApp.get(app.server);
  if (known) {
    known.push({ resources, hooks });
    return;
  }
  const sources: SearchSource[] = [{ resources, hooks }];
  sourcesByApp.set(app.server, sources);
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
          sources,
          principal,
          text: query.q,
          limit: query.limit ?? SEARCH_DEFAULT_LIMIT,
        }),
      ),
  });
}
