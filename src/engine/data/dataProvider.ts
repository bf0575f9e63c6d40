import { HttpError } from 'react-admin';
import type { DataProvider, Identifier, RaRecord } from 'react-admin';
import type { Resource } from '../../../resources/define.ts';
import type { CursorPagination } from '../../../schemas/pagination.ts';
import type { ResourceDescriptor } from './descriptor.ts';
import { registeredDescriptors } from './registry.ts';
import { httpClient } from '../../providers/httpClient.ts';
import type { RequestOptions } from '../../providers/httpClient.ts';
import { escapeSearchValue } from '../../lib/query.ts';
import { equalityCondition, listQuery } from './listQuery.ts';
import { changedFields } from './changedFields.ts';

/** The shell's fetch wrapper: resolves with the envelope's `data`, rejects with its HttpError. */
export type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

interface ListPage {
  data: RaRecord[];
  meta?: { pagination?: Partial<CursorPagination> };
}

/** The most ids one call carries: the list's page size cap for getMany, the bulk calls' cap otherwise. */
export const MAX_IDS_PER_CALL = 1000;

/** What the provider reads from react-admin's `meta`: relations to embed, and extra query parameters. */
export interface ProviderMeta {
  /** Relation names (`include=a,b`): the records embed them, on every method that answers records. */
  include?: string[] | string;
  /** More query parameters for the call, passed on as they are. */
  query?: RequestOptions['query'];
}

/**
 * The react-admin dataProvider of every declared resource, speaking the API contract: list query encoding
 * (escaped search values, `q`), envelope unwrapping (through the shell's httpClient, which also handles 401
 * by dropping the token and reloading), PATCH of changed fields only, and 422/409 field errors turned into
 * react-admin form errors. Every read passes react-admin's abort `signal` on (`supportAbortSignal`); `meta`
 * (see ProviderMeta) reaches every call; getMany is split into calls of at most 1,000 ids and merged in the
 * order asked; updateMany/deleteMany are the contract's atomic bulk calls (`?ids=`, 1,000 ids per call).
 *
 * @example
 * <Admin dataProvider={createDataProvider()} ... />
 * // tests: createDataProvider({ resources: [describeResource(testResource)], schemas: [testResource], request })
 */
export function createDataProvider({
  resources = registeredDescriptors,
  schemas,
  request = httpClient as Request,
}: {
  /** The resources it serves, described (descriptor.ts); the registry's by default. */
  resources?: readonly ResourceDescriptor[];
  /** Their zod declarations, read by updates of inline has-many lists (resources/index.ts by default). */
  schemas?: readonly Resource[];
  request?: Request;
} = {}): DataProvider {
  const resourceOf = (name: string): ResourceDescriptor => {
    const found = resources.find((r) => r.name === name);
    if (!found) throw new Error(`Unknown resource: ${name}`);
    return found;
  };
  const call = <T>(path: string, options?: RequestOptions): Promise<T> =>
    request<T>(path, options).catch((error: unknown) => {
      throw toReactAdminError(error);
    });
  // The last page answered per list query (page number and next_cursor), so "next page" goes by cursor.
  const cursors = new Map<string, { page: number; cursor: string }>();
  const getPage = async (path: string, query: ListQueryParams, signal?: AbortSignal): Promise<ListPage> => {
    const { page, ...rest } = query;
    const key = `${path}?${JSON.stringify(rest)}`;
    const known = cursors.get(key);
    const byCursor = known && typeof page === 'number' && page === known.page + 1 ? known.cursor : null;
    let result: ListPage;
    try {
      result = await call<ListPage>(path, {
        query: byCursor ? { ...rest, cursor: byCursor } : query,
        signal,
      });
    } catch (error) {
      // A cursor the server no longer takes (another server version): the page number still works.
      if (!byCursor || (error as { status?: number }).status !== 422) throw error;
      cursors.delete(key);
      result = await call<ListPage>(path, { query, signal });
    }
    const next = result.meta?.pagination?.next_cursor;
    if (typeof page === 'number' && next) cursors.set(key, { page, cursor: next });
    else cursors.delete(key);
    return result;
  };
  const pathOf = (name: string, id?: Identifier): string =>
    id === undefined
      ? resourceOf(name).endpoint
      : `${resourceOf(name).endpoint}/${encodeURIComponent(String(id))}`;

  return {
    supportAbortSignal: true,
    async getList(name, { meta, signal, ...params }) {
      const query = { ...listQuery(resourceOf(name), params), ...metaQuery(meta) };
      return listResult(await getPage(pathOf(name), query, signal));
    },
    async getOne(name, { id, meta, signal }) {
      return { data: await call<RaRecord>(pathOf(name, id), { query: metaQuery(meta), signal }) };
    },
    async getMany(name, { ids, meta, signal }) {
      const wanted = [...new Set(ids.map(String))];
      const pages = await Promise.all(
        chunks(wanted, MAX_IDS_PER_CALL).map((chunk) =>
          call<ListPage>(pathOf(name), {
            query: {
              search: `id:${chunk.map(escapeSearchValue).join(',')}`,
              searchFields: 'id:in',
              size: chunk.length,
              page: 1,
              ...metaQuery(meta),
            },
            signal,
          }),
        ),
      );
      const byId = new Map(pages.flatMap((page) => page.data.map((r) => [String(r.id), r] as const)));
      return { data: wanted.flatMap((id) => byId.get(id) ?? []) };
    },
    async getManyReference(name, { target, id, meta, signal, ...params }) {
      const resource = resourceOf(name);
      const fixed = [{ name: target, condition: equalityCondition(resource, target, id), value: id }];
      const query = { ...listQuery(resource, params, fixed), ...metaQuery(meta) };
      return listResult(await getPage(pathOf(name), query, signal));
    },
    async create(name, { data, meta }) {
      const query = metaQuery(meta);
      return { data: await call<RaRecord>(pathOf(name), { method: 'POST', body: data, query }) };
    },
    async update(name, { id, data, previousData, meta }) {
      // Inline has-many rows of the loaded record are compared as the form sends them (no foreign key).
      const previous = previousData && (await asSent(resourceOf(name), previousData, schemas));
      const changed = previous ? changedFields(data, previous) : data;
      // Written over the version the form was loaded with: someone's save in between is a 409, not lost.
      const version = (previousData as { version?: unknown } | undefined)?.version;
      const body = typeof version === 'number' ? { ...changed, version } : changed;
      const query = metaQuery(meta);
      return { data: await call<RaRecord>(pathOf(name, id), { method: 'PATCH', body, query }) };
    },
    async updateMany(name, { ids, data, meta }) {
      const done: Identifier[] = [];
      const operations = operationIds();
      for (const chunk of chunks(ids, MAX_IDS_PER_CALL)) {
        const query = { ...metaQuery(meta), ids: chunk.join(',') };
        const options = { method: 'PATCH' as const, body: data, query, onMeta: operations.add };
        done.push(...(await call<Identifier[]>(pathOf(name), options)));
      }
      return { data: done, meta: { operation_ids: operations.ids } };
    },
    /** Undoes a bulk call or an import (`POST v1/operations/<id>/undo`): what was reverted and skipped. */
    async undoOperation(id: string) {
      const path = `v1/operations/${encodeURIComponent(id)}/undo`;
      return { data: await call<UndoResult>(path, { method: 'POST' }) };
    },
    async delete(name, { id, previousData, meta }) {
      await call(pathOf(name, id), { method: 'DELETE', query: metaQuery(meta) });
      return { data: (previousData ?? { id }) as RaRecord };
    },
    /** A record's versions, newest first (`GET <path>/<id>/history`): `{ data, total }`. */
    async getHistory(name: string, { id, page = 1, perPage = 10 }: HistoryParams) {
      const query = { page, size: perPage };
      const answer = await call<{ data: HistoryEntry[]; meta?: ListPage['meta'] }>(
        `${pathOf(name, id)}/history`,
        { query },
      );
      const data = Array.isArray(answer?.data) ? answer.data : [];
      return { data, total: answer?.meta?.pagination?.total ?? data.length };
    },
    /** Writes a version's values as a new version (`POST <path>/<id>/restore`); answers the record. */
    async restoreVersion(name: string, { id, version }: { id: Identifier; version: number }) {
      const path = `${pathOf(name, id)}/restore`;
      return { data: await call<RaRecord>(path, { method: 'POST', body: { version } }) };
    },
    /** Tells the others who may see the record that this user edits it, or stopped (`POST <path>/<id>/presence`). */
    async announcePresence(name: string, { id, state }: { id: Identifier; state: 'editing' | 'left' }) {
      await call(`${pathOf(name, id)}/presence`, { method: 'POST', body: { state } });
      return { data: null };
    },
    async deleteMany(name, { ids, meta }) {
      const done: Identifier[] = [];
      const operations = operationIds();
      for (const chunk of chunks(ids, MAX_IDS_PER_CALL)) {
        const query = { ...metaQuery(meta), ids: chunk.join(',') };
        const options = { method: 'DELETE' as const, query, onMeta: operations.add };
        done.push(...(await call<Identifier[]>(pathOf(name), options)));
      }
      return { data: done, meta: { operation_ids: operations.ids } };
    },
  } as DataProvider;
}

type ListQueryParams = NonNullable<RequestOptions['query']>;

/** What `POST v1/operations/<id>/undo` answers (contract: "Nothing lost", undo an operation). */
export interface UndoResult {
  reverted: string[];
  skipped: { id: string; reason: string }[];
}

/** The `meta.operation_id` of each call of a bulk action (one per 1,000 ids), for its Undo. */
function operationIds(): { ids: string[]; add: (meta: Record<string, unknown>) => void } {
  const ids: string[] = [];
  return {
    ids,
    add: (meta) => {
      if (typeof meta.operation_id === 'string') ids.push(meta.operation_id);
    },
  };
}

/** One version of a record as `GET <path>/<id>/history` answers it (contract: "Nothing lost"). */
export interface HistoryEntry {
  version: number | null;
  action: 'create' | 'update' | 'restore';
  at: string;
  actor: { id: string; username: string; name: string } | null;
  changes: Record<string, [unknown, unknown]>;
}

export interface HistoryParams {
  id: Identifier;
  page?: number;
  perPage?: number;
}

/** The query parameters `meta` asks for (ProviderMeta); undefined when none. */
function metaQuery(meta: unknown): RequestOptions['query'] {
  const { include, query } = (meta ?? {}) as ProviderMeta;
  const names = Array.isArray(include) ? include.join(',') : include;
  const out = { ...query, ...(names ? { include: names } : {}) };
  return Object.keys(out).length ? out : undefined;
}

/** `items` in runs of at most `size`. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function listResult(page: ListPage) {
  const total = page.meta?.pagination?.total ?? page.data.length;
  return {
    data: page.data,
    total,
    meta: {
      totalIsEstimate: page.meta?.pagination?.total_is_estimate === true,
      totalIsCapped: page.meta?.pagination?.total_is_capped === true,
    },
  };
}

/**
 * react-admin puts `error.body.errors` on the form's fields (one string per field), so the contract's
 * `{ field: [messages] }` becomes `{ field: 'message; message' }`. Other errors keep status and message, and
 * a bulk call's 404 its list of missing ids (`body.ids`).
 */
export function toReactAdminError(error: unknown): unknown {
  if (!(error instanceof Error) || !('status' in error)) return error;
  const status = Number((error as { status: unknown }).status);
  const errors = (error as { errors?: Record<string, string[] | string> }).errors ?? {};
  const fieldErrors = Object.fromEntries(
    Object.entries(errors).map(([field, messages]) => [
      field,
      Array.isArray(messages) ? messages.join('; ') : String(messages),
    ]),
  );
  // A stale version's 409 carries the current record: the edit form offers it field by field.
  const current = (error as { body?: { data?: unknown } }).body?.data;
  if (status === 409 && 'version' in errors && current && typeof current === 'object')
    return new HttpError(error.message, status, { message: error.message, current });
  const hasFieldErrors = (status === 422 || status === 409) && Object.keys(fieldErrors).length > 0;
  if (hasFieldErrors) return new HttpError(error.message, status, { errors: fieldErrors });
  // A bulk call's 404 names the missing records (`errors.ids`), kept as a list.
  const missing = status === 404 ? errors.ids : undefined;
  return new HttpError(error.message, status, {
    message: error.message,
    ...(Array.isArray(missing) ? { ids: missing } : {}),
  });
}

/**
 * A loaded record as a form sends it (formPayload.ts asSentInlineLists), so an update sends only what
 * changed. Only inline has-many lists differ from the record, and only their forms load the zod
 * declarations this needs (from the form's chunk), so lists never download them.
 */
async function asSent(
  resource: ResourceDescriptor,
  record: Record<string, unknown>,
  schemas: readonly Resource[] | undefined,
): Promise<Record<string, unknown>> {
  const hasInline = Object.values(resource.options.hasMany ?? {}).some((spec) => spec.inline);
  if (!hasInline) return record;
  const { asSentInlineListsOf } = await import('../form/formPayload.ts');
  return asSentInlineListsOf(resource.name, record, schemas);
}
