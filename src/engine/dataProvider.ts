import { HttpError } from 'react-admin';
import type { DataProvider, Identifier, RaRecord } from 'react-admin';
import type { Resource } from '../../resources/define.ts';
import { resources as registered } from '../../resources/index.ts';
import { httpClient } from '../providers/httpClient.ts';
import type { RequestOptions } from '../providers/httpClient.ts';
import { listQuery } from './listQuery.ts';
import { changedFields } from './changedFields.ts';
import { asSentInlineLists } from './formPayload.ts';

/** The shell's fetch wrapper: resolves with the envelope's `data`, rejects with its HttpError. */
export type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

interface ListPage {
  data: RaRecord[];
  meta?: { pagination?: { total?: number; total_is_estimate?: boolean } };
}

/**
 * The react-admin dataProvider of every declared resource, speaking the API contract: list query encoding,
 * envelope unwrapping (through the shell's httpClient, which also handles 401 by dropping the token and
 * reloading), PATCH of changed fields only, and 422/409 field errors turned into react-admin form errors.
 * `meta.include` (a list of relation names) on getOne embeds those relations (`include=a,b`).
 *
 * @example
 * <Admin dataProvider={createDataProvider()} ... />
 * // tests: createDataProvider({ resources: [testResource], request: fakeRequest })
 */
export function createDataProvider({
  resources = registered,
  request = httpClient as Request,
}: { resources?: readonly Resource[]; request?: Request } = {}): DataProvider {
  const resourceOf = (name: string): Resource => {
    const found = resources.find((r) => r.name === name);
    if (!found) throw new Error(`Unknown resource: ${name}`);
    return found;
  };
  const call = <T>(path: string, options?: RequestOptions): Promise<T> =>
    request<T>(path, options).catch((error: unknown) => {
      throw toReactAdminError(error);
    });
  const pathOf = (name: string, id?: Identifier): string =>
    id === undefined
      ? resourceOf(name).endpoint
      : `${resourceOf(name).endpoint}/${encodeURIComponent(String(id))}`;

  return {
    async getList(name, params) {
      const page = await call<ListPage>(pathOf(name), { query: listQuery(resourceOf(name), params) });
      return listResult(page);
    },
    async getOne(name, { id, meta }) {
      const include = (meta as { include?: string[] } | undefined)?.include;
      const path = pathOf(name, id);
      if (!include?.length) return { data: await call<RaRecord>(path) };
      return { data: await call<RaRecord>(path, { query: { include: include.join(',') } }) };
    },
    async getMany(name, { ids }) {
      if (!ids.length) return { data: [] };
      const page = await call<ListPage>(pathOf(name), {
        query: { search: `id:${ids.join(',')}`, searchFields: 'id:in', size: ids.length, page: 1 },
      });
      return { data: page.data };
    },
    async getManyReference(name, params) {
      const filter = { ...params.filter, [params.target]: params.id };
      const page = await call<ListPage>(pathOf(name), {
        query: listQuery(resourceOf(name), { ...params, filter }),
      });
      return listResult(page);
    },
    async create(name, { data }) {
      return { data: await call<RaRecord>(pathOf(name), { method: 'POST', body: data }) };
    },
    async update(name, { id, data, previousData }) {
      // Inline has-many rows of the loaded record are compared as the form sends them (no foreign key).
      const previous = previousData && asSentInlineLists(resourceOf(name), previousData, resources);
      const body = previous ? changedFields(data, previous) : data;
      return { data: await call<RaRecord>(pathOf(name, id), { method: 'PATCH', body }) };
    },
    async updateMany(name, { ids, data }) {
      await Promise.all(ids.map((id) => call(pathOf(name, id), { method: 'PATCH', body: data })));
      return { data: ids };
    },
    async delete(name, { id, previousData }) {
      await call(pathOf(name, id), { method: 'DELETE' });
      return { data: (previousData ?? { id }) as RaRecord };
    },
    async deleteMany(name, { ids }) {
      // The contract has no bulk delete; one call per id keeps every delete audited and permission-checked.
      await Promise.all(ids.map((id) => call(pathOf(name, id), { method: 'DELETE' })));
      return { data: ids };
    },
  } as DataProvider;
}

function listResult(page: ListPage) {
  const total = page.meta?.pagination?.total ?? page.data.length;
  return {
    data: page.data,
    total,
    meta: { totalIsEstimate: page.meta?.pagination?.total_is_estimate === true },
  };
}

/**
 * react-admin puts `error.body.errors` on the form's fields (one string per field), so the contract's
 * `{ field: [messages] }` becomes `{ field: 'message; message' }`. Other errors keep status and message.
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
  const hasFieldErrors = (status === 422 || status === 409) && Object.keys(fieldErrors).length > 0;
  return new HttpError(
    error.message,
    status,
    hasFieldErrors ? { errors: fieldErrors } : { message: error.message },
  );
}
