import { afterEach, describe, expect, it, vi } from 'vitest';
import Cookies from 'js-cookie';
import { createDataProvider } from './dataProvider.ts';
import { describeResource } from './descriptor.ts';
import { contacts } from '../testing/contacts.ts';
import { fakeFetch, listEnvelope } from '../testing/fakeFetch.ts';
import { sessionExpiry } from '../../providers/httpClient.ts';

const provider = createDataProvider({ resources: [describeResource(contacts)], schemas: [contacts] });
const ok = (data: unknown) => ({ body: { code: 200, data } });

afterEach(() => {
  vi.unstubAllGlobals();
  Cookies.remove('access_token');
});

describe('dataProvider', () => {
  it('getList encodes filters with their default conditions, the sort and the page', async () => {
    const calls = fakeFetch(() => ({ body: listEnvelope([{ id: '1', name: 'Li' }], 31) }));
    const result = await provider.getList('contacts', {
      pagination: { page: 2, perPage: 20 },
      sort: { field: 'name', order: 'ASC' },
      filter: { name: 'li', state: true, email: '', age: 30 },
    });
    expect(calls[0]?.path).toBe('/api/v1/test/contacts');
    expect(Object.fromEntries(calls[0]!.query)).toEqual({
      page: '2',
      size: '20',
      search: 'name:li;state:1;age:30',
      searchFields: 'name:like;state:=;age:>=',
      orderBy: 'name',
      sortedBy: 'asc',
    });
    expect(result).toMatchObject({ data: [{ id: '1', name: 'Li' }], total: 31 });
  });

  it('getList leaves the server its default order and never sends an unsortable field', async () => {
    const calls = fakeFetch(() => ({ body: listEnvelope([]) }));
    await provider.getList('contacts', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'id', order: 'DESC' },
      filter: {},
    });
    await provider.getList('contacts', {
      pagination: { page: 1, perPage: 15 },
      sort: { field: 'email', order: 'ASC' },
      filter: {},
    });
    expect(calls[0]?.query.has('orderBy')).toBe(false);
    expect(calls[1]?.query.has('orderBy')).toBe(false);
  });

  it('getOne reads the record by id', async () => {
    const calls = fakeFetch(() => ok({ id: '7', name: 'Wang' }));
    const { data } = await provider.getOne('contacts', { id: '7' });
    expect(calls[0]).toMatchObject({ method: 'GET', path: '/api/v1/test/contacts/7' });
    expect(data).toEqual({ id: '7', name: 'Wang' });
  });

  it('getMany is one list call with an `in` search', async () => {
    const calls = fakeFetch(() => ({ body: listEnvelope([{ id: '1' }, { id: '2' }]) }));
    const { data } = await provider.getMany('contacts', { ids: ['1', '2'] });
    expect(calls).toHaveLength(1);
    expect(calls[0]?.query.get('search')).toBe('id:1,2');
    expect(calls[0]?.query.get('searchFields')).toBe('id:in');
    expect(data.map((r) => r.id)).toEqual(['1', '2']);
  });

  it('getManyReference searches the target field', async () => {
    const calls = fakeFetch(() => ({ body: listEnvelope([]) }));
    await provider.getManyReference('contacts', {
      target: 'department_id',
      id: '3',
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'id', order: 'DESC' },
      filter: {},
    });
    expect(calls[0]?.query.get('search')).toBe('department_id:3');
    expect(calls[0]?.query.get('searchFields')).toBe('department_id:=');
  });

  it('create POSTs the body and returns the new record', async () => {
    const calls = fakeFetch(() => ({ status: 201, body: { code: 200, data: { id: '9', name: 'Zhao' } } }));
    const { data } = await provider.create('contacts', { data: { name: 'Zhao' } });
    expect(calls[0]).toMatchObject({ method: 'POST', path: '/api/v1/test/contacts', body: { name: 'Zhao' } });
    expect(data.id).toBe('9');
  });

  it('update PATCHes only the changed fields', async () => {
    const calls = fakeFetch(() => ok({ id: '9', name: 'Zhou', role_ids: ['1'] }));
    await provider.update('contacts', {
      id: '9',
      data: { id: '9', name: 'Zhou', email: 'a@b.cn', role_ids: ['1'], updated_at: 'x' },
      previousData: { id: '9', name: 'Zhao', email: 'a@b.cn', role_ids: ['1'], updated_at: 'y' },
    });
    expect(calls[0]).toMatchObject({
      method: 'PATCH',
      path: '/api/v1/test/contacts/9',
      body: { name: 'Zhou' },
    });
  });

  it('update writes over the loaded version; a stale one rejects with the current record', async () => {
    const current = { id: '9', name: 'Qian', version: 5 };
    const calls = fakeFetch((call) =>
      (call.body as { version?: number }).version === 4
        ? ok({ ...current, name: 'Zhou', version: 5 })
        : { status: 409, body: { code: 409, message: 'Stale', data: current, errors: { version: ['Old'] } } },
    );
    await provider.update('contacts', {
      id: '9',
      data: { id: '9', name: 'Zhou', version: 4 },
      previousData: { id: '9', name: 'Zhao', version: 4 },
    });
    expect(calls[0]?.body).toEqual({ name: 'Zhou', version: 4 });
    const stale = provider.update('contacts', {
      id: '9',
      data: { id: '9', name: 'Sun', version: 3 },
      previousData: { id: '9', name: 'Zhao', version: 3 },
    });
    await expect(stale).rejects.toMatchObject({ status: 409, body: { current } });
  });

  it('updateMany and deleteMany are bulk calls of at most 1,000 ids; delete answers the previous record', async () => {
    const calls = fakeFetch((call) => ok((call.query.get('ids') ?? '').split(',')));
    const many = Array.from({ length: 1001 }, (_, i) => String(i + 1));
    // No meta.operation_id in these answers: no operation to undo.
    expect(await provider.updateMany('contacts', { ids: many, data: { state: false } })).toEqual({
      data: many,
      meta: { operation_ids: [] },
    });
    expect(await provider.delete('contacts', { id: '3', previousData: { id: '3', name: 'Q' } })).toEqual({
      data: { id: '3', name: 'Q' },
    });
    expect(await provider.deleteMany('contacts', { ids: ['4', '5'] })).toEqual({
      data: ['4', '5'],
      meta: { operation_ids: [] },
    });
    expect(calls.map((c) => `${c.method} ${c.path} ${c.query.get('ids')?.length ?? '-'}`)).toEqual([
      `PATCH /api/v1/test/contacts ${many.slice(0, 1000).join(',').length}`,
      'PATCH /api/v1/test/contacts 4',
      'DELETE /api/v1/test/contacts/3 -',
      'DELETE /api/v1/test/contacts 3',
    ]);
    expect(calls[0]?.body).toEqual({ state: false });
  });

  it('turns 422 and 409 field errors into react-admin form errors', async () => {
    fakeFetch(() => ({
      status: 422,
      body: {
        code: 422,
        message: 'Invalid',
        errors: { email: ['Invalid email'], name: ['Cannot be empty', 'Too long'] },
      },
    }));
    await expect(provider.create('contacts', { data: {} })).rejects.toMatchObject({
      status: 422,
      body: { errors: { email: 'Invalid email', name: 'Cannot be empty; Too long' } },
    });
    fakeFetch(() => ({
      status: 409,
      body: { code: 409, message: 'Taken', errors: { email: ['This value is already taken'] } },
    }));
    await expect(provider.create('contacts', { data: {} })).rejects.toMatchObject({
      status: 409,
      body: { errors: { email: 'This value is already taken' } },
    });
  });

  it('keeps the message of other failures', async () => {
    fakeFetch(() => ({ status: 403, body: { code: 403, message: 'Forbidden' } }));
    await expect(provider.getOne('contacts', { id: '1' })).rejects.toMatchObject({
      status: 403,
      message: 'Forbidden',
    });
  });

  it('on 401 deletes the token and reloads', async () => {
    Cookies.set('access_token', 'abc');
    const reload = vi.spyOn(sessionExpiry, 'onExpired').mockImplementation(() => {});
    const calls = fakeFetch(() => ({ status: 401, body: { code: 401, message: 'Unauthenticated' } }));
    await expect(provider.getOne('contacts', { id: '1' })).rejects.toMatchObject({ status: 401 });
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer abc');
    expect(Cookies.get('access_token')).toBeUndefined();
    expect(reload).toHaveBeenCalledOnce();
  });
});
