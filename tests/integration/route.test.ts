import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { PERMISSION } from '../../schemas/permissions.ts';
import { ok } from '../../server/core/envelope.ts';
import { permission, route } from '../../server/core/route.ts';
import type { AppModule } from '../../server/core/app-module.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * `route()` (server/core/route.ts) through the real app: one declaration both documents the route in
 * `GET /api/docs` and checks what reaches the handler, in the order access, params, query, body.
 */
const URL = '/api/v1/route-test/:code/echo';
const echoModule: AppModule = {
  name: 'route-test',
  register(app) {
    route(app, {
      method: 'POST',
      url: URL,
      tags: ['route-test'],
      summary: 'Echo what the handler received',
      access: permission(PERMISSION.systemTasks),
      params: z.object({ code: z.string().regex(/^[a-z]{3}$/) }),
      query: z.object({ times: z.coerce.number().int().min(1).max(3).default(1) }),
      body: z.object({ name: z.string().trim().min(1).max(10) }),
      responses: { 200: z.object({ code: z.string(), times: z.number(), name: z.string() }) },
      handler: async ({ params, query, body, principal }) =>
        ok({ code: params.code, times: query.times, name: body.name, by: principal.userId }),
    });
  },
};

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp({}, { extraModules: [echoModule] });
  token = await t.adminToken();
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, opts: { token?: string; lang?: string } = {}) =>
  t.request({
    method: 'POST',
    url,
    payload: payload as object,
    token: opts.token,
    headers: { 'accept-language': opts.lang ?? 'en' },
  });

describe('route()', () => {
  it('hands the handler parsed, typed values', async () => {
    const res = await post('/api/v1/route-test/abc/echo?times=2', { name: '  Ada ', extra: 1 }, { token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ code: 'abc', times: 2, name: 'Ada' });
  });

  it('checks access before any input: signed out with a bad body is a 401', async () => {
    const res = await post('/api/v1/route-test/!!/echo?times=9', { name: 42 });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 401, data: null });
  });

  it('a path that fails its params names nothing: 404 in the envelope', async () => {
    const res = await post('/api/v1/route-test/abcd/echo', { name: 'Ada' }, { token });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, data: null });
  });

  it('a bad query or body is a 422 naming each field, in the language of the request', async () => {
    const en = await post('/api/v1/route-test/abc/echo?times=9', { name: '' }, { token });
    expect(en.statusCode).toBe(422);
    expect(Object.keys(en.json().errors).sort()).toEqual(['times']);
    const body = await post('/api/v1/route-test/abc/echo', { name: '' }, { token });
    expect(Object.keys(body.json().errors)).toEqual(['name']);
    const zh = await post('/api/v1/route-test/abc/echo', { name: '' }, { token, lang: 'zh-CN' });
    expect(zh.statusCode).toBe(422);
    expect(zh.json().errors.name[0]).not.toBe(body.json().errors.name[0]);
  });

  it('documents the same schemas, the permission and the errors they imply', async () => {
    const doc = (await t.request({ url: '/api/docs', token })).json();
    const op = doc.paths['/api/v1/route-test/{code}/echo'].post;
    expect(op.description).toContain(`\`${PERMISSION.systemTasks}\``);
    expect(op.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'path', name: 'code' }),
        expect.objectContaining({ in: 'query', name: 'times' }),
      ]),
    );
    const body = op.requestBody.content['application/json'].schema;
    expect(body.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 10 });
    expect(op.responses['200'].content['application/json'].schema.properties.data.properties).toHaveProperty(
      'times',
    );
    for (const status of ['401', '403', '404', '422']) expect(op.responses).toHaveProperty(status);
  });
});
