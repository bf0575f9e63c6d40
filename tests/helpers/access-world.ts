import fc from 'fast-check';
import * as z from 'zod';
import { hasOperation, type Resource } from '../../resources/define.ts';
import { grantableNames } from '../../server/modules/people/guards.ts';
import type { TestApp } from './app.ts';
import { arbitraryOf, type JsonSchema } from './arbitrary.ts';
import {
  oracleResource,
  type DataScope,
  type OracleCaller,
  type OracleRecord,
  type OracleRole,
  type OracleWorld,
} from './access-oracle.ts';
import { TINY_PNG, uploadAsset } from './upload.ts';
import { createUser, type TestUser } from './users.ts';

/**
 * The world of the generated access tests (issue 30, 7), built through the API from a seed: a random
 * department tree, roles with random data scopes, permissions and field access, callers (staff members in
 * random departments holding random roles) and random records of every resource, created by the
 * administrator and by the callers themselves so that `created_by` varies. The test keeps what it chose
 * (departments, authors, scope columns) for the oracle (tests/helpers/access-oracle.ts).
 *
 * Example: `const world = await buildWorld(t, registry, { seed: 3001, size: { departments: 7, ... } })`.
 */

export interface WorldSize {
  departments: number;
  roles: number;
  callers: number;
  /** Records per resource (besides those the world itself makes: departments, roles, callers). */
  records: number;
}

export interface Caller extends OracleCaller {
  label: string;
  token: string;
}

export interface World {
  oracle: OracleWorld;
  callers: Caller[];
  admin: { token: string; userId: string };
  /** The resources under test (the registry's with a list route). */
  resources: Resource[];
  /** `<resource>:<id>` -> the user id that created it through the API (absent: made by the system/test DB). */
  authors: Map<string, string>;
  /** `<resource>:<id>` -> the department column's value the test chose. */
  departmentOf: Map<string, string | null>;
  /** How many records of each resource the world created. */
  created: Record<string, number>;
  /** Field access keys the server refused to restrict (required fields without a default), left out. */
  refusedFieldAccess: string[];
  /** A random valid body for a create by a non-administrator (references drawn from the world's records). */
  randomBody(r: Resource): Promise<Record<string, unknown>>;
  /** Notes a record the test created through the API as `author` (for the oracle). */
  note(r: string, id: string, author: string, department?: string | null): void;
}

/** Roles never restrict these: the id, and fields no answer carries. */
export function restrictableFields(r: Resource): string[] {
  return r.fields.filter((f) => !f.meta.writeOnly).map((f) => f.name);
}

/**
 * Builds the world. `neutral`: every role keeps `all` and no field access (and the role calls leave those
 * keys out), which the server before issue 30 already answers: a self-check of the harness and oracle.
 */
export async function buildWorld(
  t: TestApp,
  registry: readonly Resource[],
  { seed, size, neutral = false }: { seed: number; size: WorldSize; neutral?: boolean },
): Promise<World> {
  const rng = random(seed);
  const resources = registry.filter((r) => hasOperation(r, 'list'));
  const adminToken = await t.adminToken();
  const adminId = (await t.db.query<{ id: string }>(`SELECT id FROM users WHERE username = 'admin'`)).rows[0]!
    .id;
  const api = apiOf(t);
  const authors = new Map<string, string>();
  const departmentOf = new Map<string, string | null>();
  const created: Record<string, number> = {};
  const note = (r: string, id: string, author: string, department?: string | null) => {
    authors.set(`${r}:${id}`, author);
    if (department !== undefined) departmentOf.set(`${r}:${id}`, department);
    created[r] = (created[r] ?? 0) + 1;
  };
  const grantable = [...grantableNames()];

  // 1. Callers, first as writers (every name, scope all) so that they can author records.
  const writer = await api.post(adminToken, 'v1/user/roles', {
    name: `writer ${seed}`,
    permissions: { menu_ids: grantable },
  });
  const users: TestUser[] = [];
  for (let i = 0; i < size.callers; i++) {
    const u = await createUser(t.db, { staff: {}, username: `caller${i}_${seed}` });
    await api.patch(adminToken, `v1/user/staff/${u.staffId}`, { role_ids: [writer.id] });
    users.push(u);
  }
  const authorsPool = [{ token: adminToken, userId: adminId }, ...users];
  const pickAuthor = () => rng.pick(authorsPool);

  // 2. The department tree, each department created by a random author.
  const departments: { id: string; parentId: string }[] = [];
  for (let i = 0; i < size.departments; i++) {
    const parentId = departments.length && rng.chance(0.7) ? rng.pick(departments).id : '0';
    const author = pickAuthor();
    const d = await api.post(author.token, 'v1/user/departments', {
      name: `dept ${i} ${seed}`,
      parent_id: parentId,
    });
    departments.push({ id: d.id, parentId });
    note('departments', d.id, author.userId, d.id);
  }

  // 3. Callers' departments (none for some).
  const callerDepartments = users.map(() => (rng.chance(0.15) ? null : rng.pick(departments).id));
  for (const [i, u] of users.entries()) {
    await api.patch(adminToken, `v1/user/staff/${u.staffId}`, { department_id: callerDepartments[i] });
    departmentOf.set(`staff:${u.staffId}`, callerDepartments[i]!);
  }

  // 4. Random roles.
  const roles: OracleRole[] = [];
  const refused = new Set<string>();
  for (let i = 0; i < size.roles; i++) {
    const permissions: string[] = [];
    const fieldAccess: Record<string, 'hidden' | 'read'> = {};
    for (const r of resources) {
      if (!grantable.includes(r.permission) || !rng.chance(0.7)) continue;
      permissions.push(r.permission);
      for (const action of ['create', 'update', 'delete', 'export', 'import'] as const) {
        const name = `${r.permission}.${action}`;
        if (hasOperation(r, action) && grantable.includes(name) && rng.chance(0.5)) permissions.push(name);
      }
      if (neutral) continue;
      for (const f of restrictableFields(r)) {
        const roll = rng.next();
        if (roll < 0.12) fieldAccess[`${r.name}.${f}`] = 'hidden';
        else if (roll < 0.24) fieldAccess[`${r.name}.${f}`] = 'read';
      }
    }
    const dataScope: DataScope = neutral ? 'all' : rng.pick(DATA_SCOPES);
    const departmentIds =
      dataScope === 'custom' ? [...new Set([rng.pick(departments).id, rng.pick(departments).id])] : [];
    const enabled = rng.chance(0.88);
    const body: Record<string, unknown> = {
      name: `role ${i} ${seed}`,
      permissions: { menu_ids: permissions },
      state: enabled,
    };
    // A role without them behaves as `all`, `[]`, `{}` (the agreement): send only what is not neutral.
    if (dataScope !== 'all') body.data_scope = dataScope;
    if (departmentIds.length) body.data_scope_department_ids = departmentIds;
    if (Object.keys(fieldAccess).length) body.field_access = fieldAccess;
    let res = await api.call(adminToken, 'POST', 'v1/user/roles', body);
    if (
      res.statusCode === 422 &&
      Object.keys(res.json().errors ?? {}).some((k) => k.startsWith('field_access'))
    ) {
      // The server may refuse to restrict a field a create cannot do without (required, no default): the
      // role keeps the rest, and the run says which it gave up.
      for (const key of Object.keys(fieldAccess)) {
        const [name, f] = key.split('.') as [string, string];
        const schema = resources.find((x) => x.name === name)?.fields.find((x) => x.name === f)?.schema;
        if (schema && !schema.safeParse(undefined).success) {
          delete fieldAccess[key];
          refused.add(key);
        }
      }
      if (Object.keys(fieldAccess).length) body.field_access = fieldAccess;
      else delete body.field_access;
      res = await api.call(adminToken, 'POST', 'v1/user/roles', body);
    }
    if (res.statusCode !== 201)
      throw new Error(`POST v1/user/roles ${JSON.stringify(body)}: ${res.statusCode} ${res.body}`);
    const role = (res.json() as { data: { id: string } }).data;
    note('roles', role.id, adminId);
    roles.push({ id: role.id, enabled, permissions, dataScope, departmentIds, fieldAccess });
  }
  note('roles', writer.id, adminId);

  // 5. Records of every resource, in the order their references need, each by a random author.
  const ctx: BodyContext = { rng, seed, api, adminToken, pools: new Map(), used: new Set(), departments };
  for (const r of orderByReferences(resources)) {
    if (r.name === 'departments') continue;
    // Authors without repeats (a shuffle of the administrator and the callers): more callers own a record.
    const order = shuffle(rng, authorsPool);
    const authorOf = (i: number) => order[i % order.length]!;
    if (r.name === 'assets') {
      for (let i = 0; i < size.records; i++) {
        const author = authorOf(i);
        const id = await uploadAsset(t, author.token, `w${i}.png`, TINY_PNG, 'image/png');
        note('assets', id, author.userId);
      }
      continue;
    }
    if (!hasOperation(r, 'create')) continue;
    for (let i = 0; i < size.records; i++) {
      const author = authorOf(i);
      const department =
        oracleResource(r).scope?.department === 'department_id'
          ? pickDepartment(rng, departments)
          : undefined;
      const record = await createRandom(r, ctx, author.token, author.userId === adminId, department);
      note(r.name, record.id, author.userId, department);
    }
  }

  // 6. The callers take their random roles (1 or 2 each), the writer role goes.
  const callers: Caller[] = [];
  for (const [i, u] of users.entries()) {
    const roleIds = [...new Set([rng.pick(roles).id, ...(rng.chance(0.5) ? [rng.pick(roles).id] : [])])];
    await api.patch(adminToken, `v1/user/staff/${u.staffId}`, { role_ids: roleIds });
    callers.push({
      label: `caller${i}`,
      token: u.token,
      userId: u.userId,
      staffId: u.staffId,
      departmentId: callerDepartments[i]!,
      isAdmin: false,
      roleIds,
    });
  }
  return {
    oracle: { departments, roles },
    callers,
    admin: { token: adminToken, userId: adminId },
    resources,
    authors,
    departmentOf,
    created,
    refusedFieldAccess: [...refused],
    randomBody: (r) => randomBody(r, ctx, false),
    note,
  };
}

/**
 * Every row of a resource as the oracle knows it: the ids the administrator lists (rows the system made
 * count too), with the department and author the test chose, else the stored department (rows the test
 * did not create through the API have no author).
 */
export async function oracleRecords(t: TestApp, world: World, r: Resource): Promise<OracleRecord[]> {
  const rows = await listEverything(t, world.admin.token, r);
  const scope = oracleResource(r).scope;
  return rows.map((row) => {
    const key = `${r.name}:${row.id}`;
    const out: Record<string, unknown> = { id: row.id, created_by: world.authors.get(key) ?? null };
    if (scope?.department && scope.department !== 'id')
      out[scope.department] = world.departmentOf.has(key)
        ? world.departmentOf.get(key)
        : row[scope.department];
    // The user a record is (staff: user_id, which the test did not choose): as stored.
    if (scope?.self) out[scope.self] = row[scope.self] ?? null;
    return out as OracleRecord;
  });
}

/** Every record of a resource, as `token` lists it (pages of 1,000, by id). */
export async function listEverything(
  t: TestApp,
  token: string,
  r: Resource,
): Promise<(Record<string, unknown> & { id: string })[]> {
  const out: (Record<string, unknown> & { id: string })[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request({
      url: `/api/${r.endpoint}?size=1000&page=${page}&orderBy=id&sortedBy=asc`,
      token,
    });
    if (res.statusCode !== 200) throw new Error(`list ${r.name} as admin: ${res.statusCode} ${res.body}`);
    const rows = (res.json() as { data: { data: (Record<string, unknown> & { id: string })[] } }).data.data;
    out.push(...rows);
    if (rows.length < 1000) return out;
  }
}

/** A seeded pseudo-random source (mulberry32): the world's shape is the same for the same seed. */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    chance: (p: number) => next() < p,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

// ------------------------------------------------------------------------------------------- helpers

/** Drawn with these weights: `self` and `all` twice as often, as owner-only resources need them to show rows. */
const DATA_SCOPES: readonly DataScope[] = [
  'all',
  'all',
  'department_and_below',
  'department',
  'self',
  'self',
  'custom',
];

function shuffle<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type Rng = ReturnType<typeof random>;

interface BodyContext {
  rng: Rng;
  seed: number;
  api: ReturnType<typeof apiOf>;
  adminToken: string;
  /** Ids created so far per resource (references draw on them). */
  pools: Map<string, string[]>;
  /** Unique values handed out. */
  used: Set<string>;
  departments: readonly { id: string }[];
}

function pickDepartment(rng: Rng, departments: readonly { id: string }[]): string | null {
  return rng.chance(0.15) ? null : rng.pick(departments).id;
}

function apiOf(t: TestApp) {
  const call = async (token: string, method: 'POST' | 'PATCH', path: string, payload: unknown) => {
    const res = await t.request({
      method,
      url: `/api/${path}`,
      token,
      payload: payload as Record<string, unknown>,
    });
    return res;
  };
  return {
    call,
    get: (token: string, path: string) => t.request({ url: `/api/${path}`, token }),
    async post(token: string, path: string, payload: unknown): Promise<{ id: string }> {
      const res = await call(token, 'POST', path, payload);
      if (res.statusCode !== 201)
        throw new Error(`POST ${path} ${JSON.stringify(payload)}: ${res.statusCode} ${res.body}`);
      return (res.json() as { data: { id: string } }).data;
    },
    async patch(token: string, path: string, payload: unknown): Promise<void> {
      const res = await call(token, 'PATCH', path, payload);
      if (res.statusCode !== 200)
        throw new Error(`PATCH ${path} ${JSON.stringify(payload)}: ${res.statusCode} ${res.body}`);
    },
  };
}

/** Resources whose required references come first (a resource referring to itself does not wait). */
function orderByReferences(resources: readonly Resource[]): Resource[] {
  const out: Resource[] = [];
  const visit = (r: Resource, path: Set<string>) => {
    if (out.includes(r) || path.has(r.name)) return;
    path.add(r.name);
    for (const f of r.fields) {
      const target = f.meta.relation && resources.find((x) => x.name === f.meta.relation!.resource);
      if (target && target !== r) visit(target, path);
    }
    out.push(r);
  };
  for (const r of resources) visit(r, new Set());
  return out;
}

/** Creates one random valid record as `token` (a few candidates, for unique values taken meanwhile). */
async function createRandom(
  r: Resource,
  ctx: BodyContext,
  token: string,
  isAdmin: boolean,
  department: string | null | undefined,
): Promise<{ id: string }> {
  let last = '';
  for (let attempt = 0; attempt < 8; attempt++) {
    const body = await randomBody(r, ctx, isAdmin);
    if (department !== undefined) body.department_id = department;
    const res = await ctx.api.call(token, 'POST', r.endpoint, body);
    if (res.statusCode === 201) {
      const id = (res.json() as { data: { id: string } }).data.id;
      ctx.pools.set(r.name, [...(ctx.pools.get(r.name) ?? []), id]);
      return { id };
    }
    last = `${res.statusCode} ${res.body.slice(0, 300)} for ${JSON.stringify(body).slice(0, 300)}`;
    if (res.statusCode !== 409) break;
  }
  throw new Error(`could not create a random ${r.name}: ${last}`);
}

async function randomBody(r: Resource, ctx: BodyContext, isAdmin: boolean): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const f of r.fields) {
    if (f.meta.readOnly) continue;
    const required = !f.schema.safeParse(undefined).success;
    const value = await fieldValue(r, f, ctx, isAdmin, required);
    if (value !== undefined) body[f.name] = value;
  }
  return body;
}

async function fieldValue(
  r: Resource,
  f: Resource['fields'][number],
  ctx: BodyContext,
  isAdmin: boolean,
  required: boolean,
): Promise<unknown> {
  const { rng } = ctx;
  const key = `${r.name}.${f.name}`;
  // Roles: known names, a neutral scope (the world's own roles carry the random ones).
  if (key === 'roles.permissions') return { menu_ids: [] };
  if (key === 'departments.parent_id') return rng.chance(0.3) ? '0' : rng.pick(ctx.departments).id;
  if (key === 'roles.data_scope' || key === 'roles.data_scope_department_ids' || key === 'roles.field_access')
    return undefined;
  // Only an administrator makes administrators or hands out roles (server/modules/people).
  if (key === 'staff.is_admin') return 0;
  if (key === 'staff.role_ids' && !isAdmin) return [];
  const relation = f.meta.relation;
  if (relation) {
    const pool =
      relation.resource === 'departments'
        ? ctx.departments.map((d) => d.id)
        : (ctx.pools.get(relation.resource) ?? []);
    if (relation.kind === 'manyToMany')
      return pool.length ? [...new Set([rng.pick(pool), rng.pick(pool)])] : [];
    if (!pool.length) return required ? await firstOf(ctx, relation.resource) : null;
    return !required && rng.chance(0.2) ? null : rng.pick(pool);
  }
  if (f.meta.dictionary)
    return required || rng.chance(0.7) ? rng.pick(await dictionaryValues(ctx, f.meta.dictionary)) : undefined;
  if (f.meta.hash === 'argon2' || f.meta.input === 'password') return `Pw!${rng.int(1e9)}Q7x`;
  const json = z.toJSONSchema(f.schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'openapi-3.0',
  }) as JsonSchema;
  for (let attempt = 0; attempt < 50; attempt++) {
    const [value] = fc.sample(arbitraryOf(json), { seed: ctx.seed + rng.int(1e9), numRuns: 1 });
    if (!f.meta.unique || value === undefined || value === null) return value;
    const u = `${key}=${String(value).trim().toLowerCase()}`;
    if (ctx.used.has(u)) continue;
    ctx.used.add(u);
    return value;
  }
  throw new Error(`no fresh unique value for ${key}`);
}

/** A record of a required reference's target when none was made yet (a resource not under test). */
async function firstOf(ctx: BodyContext, resource: string): Promise<string | null> {
  return ctx.pools.get(resource)?.[0] ?? null;
}

/** The enabled values of a dictionary, creating it with three entries when it has none. */
async function dictionaryValues(ctx: BodyContext, slug: string): Promise<string[]> {
  const cached = ctx.pools.get(`dictionary:${slug}`);
  if (cached) return cached;
  const found = await ctx.api.get(ctx.adminToken, `v1/dictionary/options/${slug}`);
  let values = ((found.json() as { data?: { data?: { value: string }[] } }).data?.data ?? []).map(
    (e) => e.value,
  );
  if (!values.length) {
    values = ['alpha', 'beta', 'gamma'];
    await ctx.api.post(ctx.adminToken, 'v1/dictionary/types', {
      name: slug,
      slug,
      data: values.map((value) => ({ label: value.toUpperCase(), value })),
    });
  }
  ctx.pools.set(`dictionary:${slug}`, values);
  return values;
}
