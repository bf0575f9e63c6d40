import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { closed, untypedProperties } from '../helpers/openapi-strict.ts';

/**
 * What a third-party client relies on (issue 33): the document's named schemas and the list language's
 * deliberate choices (docs/api.md), each through HTTP against the real server. The generated client itself
 * is tests/integration/api-typed-client.test.ts.
 */
type JsonSchema = Record<string, unknown>;

let t: TestApp;
let token: string;
let doc: JsonSchema;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);

beforeAll(async () => {
  t = await createTestApp();
  token = await t.adminToken();
  doc = (await t.request({ url: '/api/docs/json' })).json();
}, 180_000);
afterAll(() => t.close());

const schemas = () => (doc.components as { schemas: Record<string, JsonSchema> }).schemas;
/** A validator of one named schema, every object closed (an undocumented key fails). */
const validatorOf = (name: string) =>
  ajv.compile(closed({ $ref: `#/components/schemas/${name}`, components: doc.components }) as JsonSchema);

describe('the document', () => {
  it('is answered at /api/docs/json as at /api/docs', async () => {
    const res = await t.request({ url: '/api/docs/json', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual((await t.request({ url: '/api/docs' })).json());
  });

  it('names a record, create and update schema per resource and one schema per settings group', () => {
    const names = Object.keys(schemas());
    for (const stem of ['Departments', 'Roles', 'Users', 'Staff', 'Dictionaries'])
      expect(names).toEqual(expect.arrayContaining([`${stem}Record`, `${stem}Create`, `${stem}Update`]));
    expect(names).toEqual(expect.arrayContaining(['StaffCreated', 'AssetsRecord', 'ErrorEnvelope']));
    for (const group of ['Site', 'Basic', 'Sms', 'Message', 'Login'])
      expect(names).toEqual(expect.arrayContaining([`Settings${group}`, `Settings${group}Body`]));
    console.info(`[api-clients] ${names.length} named schemas`);
  });

  it('types every property but the free JSON of jobs, audit rows and task results', () => {
    const untyped = untypedProperties(doc);
    console.info(`[api-clients] ${untyped.length} untyped properties: ${untyped.join(', ')}`);
    for (const where of untyped) expect(where).toMatch(/\.(output|data|changes|result)$/);
    // Ids are digit strings: staff's department_id, user_id and role_ids (`{}` before issue 33).
    const staff = schemas().StaffRecord!.properties as Record<string, JsonSchema>;
    expect(staff.department_id).toMatchObject({ type: 'string', nullable: true });
    expect(staff.user_id).toMatchObject({ type: 'string', nullable: true });
    expect(staff.role_ids).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(staff.department).toMatchObject({
      anyOf: [{ $ref: '#/components/schemas/DepartmentsRecord' }, {}],
    });
    expect(schemas().StaffRecord!.required).toEqual(expect.arrayContaining(['registered', 'invitation_url']));
  });

  it('requires the envelope keys of every JSON success answer', () => {
    const loose: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, JsonSchema>>))
      for (const [method, op] of Object.entries(ops))
        for (const [status, answer] of Object.entries(op.responses as Record<string, JsonSchema>)) {
          const schema = (answer.content as Record<string, { schema?: JsonSchema }> | undefined)?.[
            'application/json'
          ]?.schema;
          if (!status.startsWith('2') || !schema?.properties) continue;
          if (!((schema.required as string[] | undefined) ?? []).includes('data'))
            loose.push(`${method} ${path} ${status}`);
        }
    expect(loose).toEqual([]);
  });

  it("documents booleans as 1/0 too, a dictionary entry's memo as optional, the export's job as JSON", () => {
    const staffCreate = schemas().StaffCreate!.properties as Record<string, JsonSchema>;
    expect(staffCreate.state!.anyOf).toEqual([{ type: 'boolean' }, { type: 'integer', enum: [0, 1] }]);
    const entry = (schemas().DictionariesCreate!.properties as Record<string, JsonSchema>).data!
      .items as JsonSchema;
    expect(entry.required).toEqual(['label', 'value']);
    const exportOp = (doc.paths as Record<string, Record<string, JsonSchema>>)['/api/v1/user/staff/export']!
      .get!;
    const answers = exportOp.responses as Record<string, { content: Record<string, unknown> }>;
    expect(Object.keys(answers['200']!.content)).toEqual([
      'text/csv',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    expect(Object.keys(answers['202']!.content)).toEqual(['application/json']);
  });

  it("documents the activity log's list query and its 422", () => {
    const op = (doc.paths as Record<string, Record<string, JsonSchema>>)['/api/v1/user/logs']!.get!;
    const names = (op.parameters as { name: string }[]).map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['page', 'size', 'search', 'searchFields', 'orderBy']));
    expect(Object.keys(op.responses as JsonSchema)).toContain('422');
  });
});

describe('settings groups', () => {
  it('a body valid for its group validates against its schema, and so does the answer', async () => {
    const body = { site_name: 'Admin' };
    const isBody = validatorOf('SettingsSiteBody');
    expect(isBody(body), JSON.stringify(isBody.errors)).toBe(true);
    expect(isBody({ site_name: 'Admin', upload_max_size: 1 })).toBe(false);
    const res = await t.request({ method: 'POST', url: '/api/v1/settings/site', token, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    const isAnswer = validatorOf('SettingsSite');
    expect(isAnswer(res.json().data), JSON.stringify(isAnswer.errors)).toBe(true);
    // The group by name still answers the same.
    const byName = await t.request({ url: '/api/v1/settings/site', token });
    expect(byName.json().data.site_name).toBe('Admin');
  });
});

describe('the list language', () => {
  const ids: string[] = [];
  beforeAll(async () => {
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1/user/departments',
        token,
        payload: { name, parent_id: '0' },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().data.id);
    }
  });
  const list = async (query: string) => {
    const res = await t.request({ url: `/api/v1/user/departments?${query}`, token });
    return {
      status: res.statusCode,
      body: res.json(),
      names: (res.json().data?.data ?? []).map((r: { name: string }) => r.name),
    };
  };

  it('looks for a bare search term in the searchFields named only, as l5 does', async () => {
    // Without searchFields a bare term is looked for in the like fields (the name): nothing holds "0".
    expect((await list('search=lph')).names).toEqual(['Alpha']);
    expect((await list('search=0')).names).toEqual([]);
    // With searchFields, in those fields only, each with its condition: parent_id = 0 (the root's children).
    expect((await list('search=0&searchFields=parent_id:%3D')).names.sort()).toEqual([
      'Alpha',
      'Beta',
      'Gamma',
    ]);
    expect((await list('search=lph&searchFields=parent_id:%3D')).status).toBe(422);
  });

  it('takes between, >= and <= on ids', async () => {
    const [a, b, c] = ids;
    const q = (s: string) => list(`${s}&orderBy=id&sortedBy=asc`);
    expect((await q(`search=id:${a},${b}&searchFields=id:between`)).names).toEqual(['Alpha', 'Beta']);
    expect((await q(`search=id:${b}&searchFields=id:%3E%3D`)).names).toEqual(['Beta', 'Gamma']);
    expect((await q(`search=id:${a}&searchFields=id:%3C%3D`)).names).toContain('Alpha');
    expect((await q(`search=id:${c}&searchFields=id:%3C%3D`)).names).not.toContain(undefined);
  });

  it('refuses a field named twice with a 422 naming it (in is the way to give several)', async () => {
    const [a, b] = ids;
    const res = await list(`search=id:${a};id:${b}`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['id']);
    expect((await list(`search=id:${a},${b}&searchFields=id:in`)).names.sort()).toEqual(['Alpha', 'Beta']);
  });

  it("takes limit as l5's page size, and refuses it beside a different size", async () => {
    const one = await list('limit=1');
    expect(one.status).toBe(200);
    expect(one.names).toHaveLength(1);
    expect(one.body.data.meta.pagination.per_page).toBe(1);
    expect((await list('limit=2&size=2')).names).toHaveLength(2);
    const both = await list('limit=1&size=2');
    expect(both.status).toBe(422);
    expect(Object.keys(both.body.errors)).toEqual(['limit']);
  });
});

describe('small truths', () => {
  it('refuses a __proto__ key with a 422 naming it, not as invalid JSON', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/v1/user/departments',
      token,
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"x","__proto__":{"admin":true}}',
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['__proto__']);
    expect(res.json().message).not.toMatch(/JSON/);
  });

  it('answers a 20 KB query string with the 431 every operation documents', async () => {
    const op = (doc.paths as Record<string, Record<string, JsonSchema>>)['/api/v1/user/departments']!.get!;
    expect(Object.keys(op.responses as JsonSchema)).toContain('431');
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/api/v1/user/departments?q=${'a'.repeat(20_000)}`);
    expect(res.status).toBe(431);
    expect((await res.json()).code).toBe(431);
  });
});
