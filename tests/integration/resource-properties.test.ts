import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import * as z from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasOperation, searchConditions, type Condition, type Resource } from '../../resources/define.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { grantableNames } from '../../server/modules/people/guards.ts';
import { TINY_PNG, uploadAsset } from '../helpers/upload.ts';
import { FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { resources as registry } from '../fixtures/registry.ts';
import { arbitraryOf, type JsonSchema } from '../helpers/arbitrary.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { bySize, generatedCases } from '../helpers/generated.ts';

/**
 * Generated, per-resource property tests (issue 11, 5): for every resource of the product's registry and the
 * test fixture's (tests/fixtures/registry.ts), built from its definition alone, so a resource a developer
 * adds is covered without a test of its own. Seeded (SEED), RUNS random records per resource:
 * - valid records are created, read, listed, found by every searchable field with every condition, sorted
 *   by every sortable field, updated and deleted;
 * - an invalid value of each kind in each writable field is a 422 naming the field, and writes nothing;
 * - deleting a record another one refers to is a 409 (restrict), or empties the reference (set null) or
 *   deletes the child (cascade): never a dangling id;
 * - the CSV export completes for any data, including formula-looking text, and importing it back untouched
 *   (in either language; its ID column matches the records, names and labels map back) changes nothing.
 * Server-side rules of the people module are respected: department parents exist, role grants are known
 * names, passwords are acceptable.
 */
const SEED = 11_05;
/** Records per resource; a sample under `npm run test:pg` (tests/helpers/generated.ts). */
const RUNS = bySize({ full: 5, sample: 2 });

let t: TestApp;
let token: string;
const cases: Record<string, number> = {};
const count = (resource: string, n = 1) => void (cases[resource] = (cases[resource] ?? 0) + n);

beforeAll(async () => {
  const fixtures = {
    ...createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS }),
    name: 'fixture-resources',
  };
  t = await createTestApp({}, { extraModules: [fixtures] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  token = await t.adminToken();
  // Building the app with the fixture takes long on a loaded 2-core machine.
}, 180_000);
afterAll(async () => {
  console.info(
    `[properties] seed ${SEED}, ${RUNS} records per resource (${generatedCases}); generated cases: ${JSON.stringify(cases)} ` +
      `(total ${Object.values(cases).reduce((a, b) => a + b, 0)})`,
  );
  await t.close();
});

// ------------------------------------------------------------------------------------------- helpers

interface Field {
  name: string;
  json: JsonSchema;
  kind:
    'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'object' | 'array' | 'reference' | 'references';
  meta: Resource['fields'][number]['meta'];
  target: string | null;
  required: boolean;
}

const api = (r: Resource) => `/api/${r.endpoint}`;
const byName = (name: string) => registry.find((r) => r.name === name)!;

function fieldsOf(r: Resource): Field[] {
  return r.fields.map((f) => {
    const json = z.toJSONSchema(f.schema, { io: 'input', unrepresentable: 'any', target: 'openapi-3.0' });
    const rel = f.meta.relation;
    const type = String((json as JsonSchema).type ?? '');
    const kind: Field['kind'] = rel
      ? rel.kind === 'belongsTo'
        ? 'reference'
        : 'references'
      : (json as JsonSchema).enum
        ? 'enum'
        : ((['string', 'integer', 'number', 'boolean', 'object', 'array'].find(
            (k) => k === type,
          ) as Field['kind']) ?? 'object');
    return {
      name: f.name,
      json: json as JsonSchema,
      kind,
      meta: f.meta,
      target: rel?.resource ?? null,
      required: !f.schema.safeParse(undefined).success,
    };
  });
}
const writable = (r: Resource) => fieldsOf(r).filter((f) => !f.meta.readOnly);

async function call(method: string, url: string, body?: unknown) {
  const res = await t.request({
    method: method as 'GET',
    url,
    token,
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
  });
  let json: { code: number; data: unknown; errors?: Record<string, string[]>; message?: string } | null =
    null;
  try {
    json = res.json();
  } catch {
    // CSV
  }
  return { status: res.statusCode, json, body: res.body };
}

/** Ids of existing records of a resource (read fresh: other tests delete), creating one when there is none. */
async function poolOf(name: string, seed: number): Promise<string[]> {
  const r = byName(name);
  const list = await call('GET', `${api(r)}?size=50`);
  const ids = ((list.json?.data as { data: { id: string }[] } | undefined)?.data ?? []).map((x) => x.id);
  // Assets are uploaded, not created (the `file()` / `image()` fields refer to them).
  if (!ids.length && name === 'assets')
    for (const n of [1, 2]) ids.push(await uploadAsset(t, token, `p${n}.png`, TINY_PNG, 'image/png'));
  if (!ids.length && hasOperation(r, 'create')) {
    for (const body of await validBodies(r, seed, 3)) {
      const res = await call('POST', api(r), body);
      if (res.status === 201) {
        ids.push((res.json!.data as { id: string }).id);
        break;
      }
    }
  }
  return ids;
}

/** Dictionary slugs used by fields get a dictionary with entries (created once). */
async function dictionaryValues(slug: string): Promise<string[]> {
  const found = await call('GET', `/api/v1/dictionary/options/${slug}`);
  const values = ((found.json?.data as { data?: { value: string }[] } | undefined)?.data ?? []).map(
    (e) => e.value,
  );
  if (values.length) return values;
  const entries = ['alpha', 'beta', 'gamma'].map((value) => ({ label: value.toUpperCase(), value }));
  const res = await call('POST', '/api/v1/dictionary/types', { name: slug, slug, data: entries });
  expect(res.status, res.body).toBe(201);
  return entries.map((e) => e.value);
}

const FORMULAS = ['=1+1', '+SUM(A1:A2)', '-2+3', '@cmd', '=HYPERLINK("http://x")'];
const GRANTABLE = [...grantableNames()];
/** The keys a role's field_access takes: `<resource>.<field>` of every served field but write-only ones. */
const FIELD_KEYS = registry.flatMap((r) =>
  r.fields.filter((f) => !f.meta.writeOnly).map((f) => `${r.name}.${f.name}`),
);

/** The arbitrary of one writable field, honouring relations, dictionaries and the people module's rules. */
async function fieldArbitrary(r: Resource, f: Field, seed: number): Promise<fc.Arbitrary<unknown>> {
  if (f.kind === 'reference') {
    const ids = f.target === r.name ? [] : await poolOf(f.target!, seed);
    const some = ids.length ? fc.constantFrom(...ids) : fc.constant(null);
    return f.required ? some : fc.oneof(some, fc.constant(null));
  }
  if (f.kind === 'references') {
    const ids = await poolOf(f.target!, seed);
    return ids.length ? fc.uniqueArray(fc.constantFrom(...ids), { maxLength: 2 }) : fc.constant([]);
  }
  if (f.meta.dictionary) {
    const values = await dictionaryValues(f.meta.dictionary);
    return f.required
      ? fc.constantFrom(...values)
      : fc.option(fc.constantFrom(...values), { nil: undefined });
  }
  if (r.name === 'departments' && f.name === 'parent_id') {
    const ids = (await call('GET', `${api(r)}?size=50`)).json!.data as { data: { id: string }[] };
    return fc.constantFrom('0', ...ids.data.map((d) => d.id));
  }
  if (r.name === 'roles' && f.name === 'permissions')
    return fc.uniqueArray(fc.constantFrom(...GRANTABLE), { maxLength: 4 }).map((menu_ids) => ({ menu_ids }));
  if (r.name === 'roles' && f.name === 'field_access')
    return fc.dictionary(fc.constantFrom(...FIELD_KEYS), fc.constantFrom('hidden', 'read'), { maxKeys: 3 });
  if (f.meta.hash === 'argon2' || f.meta.input === 'password')
    return fc.stringMatching(/^[a-z0-9]{10}$/).map((s) => `Pw!${s}Q7`);
  const base = arbitraryOf(f.json);
  // Plain text fields sometimes carry formula-looking text (CSV export must escape it and read it back).
  const plainText =
    f.kind === 'string' && !f.json.pattern && !f.json.format && !f.json.enum && !f.meta.unique;
  if (plainText) {
    const max = Number(f.json.maxLength ?? 1000);
    const formulas = FORMULAS.filter((x) => x.length <= max);
    if (formulas.length)
      return fc.oneof({ weight: 3, arbitrary: base }, { weight: 1, arbitrary: fc.constantFrom(...formulas) });
  }
  return base;
}

async function recordArbitrary(r: Resource, seed: number): Promise<fc.Arbitrary<Record<string, unknown>>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of writable(r)) model[f.name] = await fieldArbitrary(r, f, seed);
  const required = writable(r)
    .filter((f) => f.required)
    .map((f) => f.name);
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, unknown>>;
}

/** Unique values handed out so far (the file's records never collide on a unique field). */
const usedUnique = new Set<string>();

/** `n` valid bodies, distinct in their unique fields. */
async function validBodies(r: Resource, seed: number, n: number): Promise<Record<string, unknown>[]> {
  const arb = await recordArbitrary(r, seed);
  const unique = writable(r).filter((f) => f.meta.unique);
  const seen = usedUnique;
  const out: Record<string, unknown>[] = [];
  for (const body of fc.sample(arb, { seed, numRuns: n * 6 })) {
    const keys = unique
      .filter((f) => body[f.name] !== undefined && body[f.name] !== null)
      .map((f) => `${r.name}.${f.name}=${String(body[f.name]).toLowerCase()}`);
    if (keys.some((k) => seen.has(k))) continue;
    keys.forEach((k) => seen.add(k));
    out.push(body);
    if (out.length === n) break;
  }
  return out;
}

/** The stored value equals what was sent (ids as strings, dates as instants, lists as sets). */
function same(raw: unknown, stored: unknown, f: Field, schema: z.ZodType): boolean {
  if (raw === undefined) return true;
  // What the field's own schema makes of the value (defaults inside objects, trimming, ids as strings).
  const parsed = schema.safeParse(raw);
  const sent = parsed.success ? parsed.data : raw;
  if (sent === null)
    return stored === null || stored === undefined || (Array.isArray(stored) && !stored.length);
  if (f.kind === 'references')
    return (
      JSON.stringify([...(sent as unknown[])].map(String).sort()) ===
      JSON.stringify([...((stored as unknown[]) ?? [])].map(String).sort())
    );
  if (f.kind === 'reference') return String(sent) === String(stored);
  if (f.json.format === 'date-time') return Date.parse(String(sent)) === Date.parse(String(stored));
  if (f.kind === 'number' || f.kind === 'integer') return Number(sent) === Number(stored);
  if (f.kind === 'boolean') return Boolean(sent) === Boolean(stored);
  if (typeof sent === 'string') return sent.trim() === stored;
  return JSON.stringify(sortKeys(sent)) === JSON.stringify(sortKeys(stored));
}
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

function expectStored(r: Resource, body: Record<string, unknown>, record: Record<string, unknown>) {
  for (const f of writable(r)) {
    if (f.meta.writeOnly) {
      expect(record, `${r.name}.${f.name} is write-only`).not.toHaveProperty(f.name);
      continue;
    }
    if (!(f.name in body)) continue;
    expect(
      same(body[f.name], record[f.name], f, r.fields.find((x) => x.name === f.name)!.schema),
      `${r.name}.${f.name}: sent ${JSON.stringify(body[f.name])}, stored ${JSON.stringify(record[f.name])}`,
    ).toBe(true);
  }
}

/** A search value that must match `value` under `condition` (undefined when the value cannot be searched). */
function searchValue(f: Field, condition: Condition, value: unknown): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined) return undefined;
  const text = typeof v === 'object' ? undefined : String(v);
  // `;` separates pairs and `,` values in the query language (escapes are issue 17).
  if (text === undefined || /[;,]/.test(text) || text.trim() !== text) return undefined;
  switch (condition) {
    case '=':
    case '>=':
    case '<=':
      return text;
    case 'like': {
      const chars = [...text];
      return (
        chars
          .slice(
            Math.floor(chars.length / 3),
            Math.max(Math.floor(chars.length / 3) + 1, Math.ceil((2 * chars.length) / 3)),
          )
          .join('') || undefined
      );
    }
    case 'in':
      return f.kind === 'reference' || f.kind === 'references' ? `${text},999999` : `${text},${text}`;
    case 'between':
      return `${text},${text}`;
    case '<>':
      if (f.kind === 'boolean') return String(!v);
      if (f.kind === 'integer' || f.kind === 'number') return String(Number(v) + 1);
      if (f.kind === 'reference') return '999999';
      if (f.kind === 'enum') return (f.json.enum as string[]).find((e) => e !== v);
      return `${text}~`;
  }
}

type RecordOf = Record<string, unknown> & { id: string };

async function listAll(r: Resource, query = ''): Promise<RecordOf[]> {
  const res = await call('GET', `${api(r)}?size=1000&orderBy=id&sortedBy=asc${query}`);
  expect(res.status, res.body).toBe(200);
  return (res.json!.data as { data: RecordOf[] }).data;
}

// --------------------------------------------------------------------------------------------- tests

const engineResources = registry.filter((r) => hasOperation(r, 'list'));

describe.each(engineResources.map((r, i) => [r.name, r, i] as const))(
  '%s (generated)',
  (name, r, index) => {
    const seed = SEED + index * 1000;
    const creatable = hasOperation(r, 'create');

    it.runIf(creatable)(
      'creates, reads, lists, searches, sorts, updates and deletes valid random records',
      async () => {
        const bodies = await validBodies(r, seed, RUNS);
        expect(bodies.length).toBeGreaterThan(0);
        const created: { body: Record<string, unknown>; record: RecordOf }[] = [];
        for (const body of bodies) {
          const res = await call('POST', api(r), body);
          count(name);
          expect(res.status, `POST ${JSON.stringify(body)} -> ${res.body}`).toBe(201);
          const record = res.json!.data as RecordOf;
          expectStored(r, body, record);
          const read = await call('GET', `${api(r)}/${record.id}`);
          expect(read.status).toBe(200);
          expectStored(r, body, read.json!.data as RecordOf);
          created.push({ body, record: read.json!.data as RecordOf });
        }
        const listed = await listAll(r);
        for (const { record } of created) expect(listed.map((x) => x.id)).toContain(record.id);

        // Every searchable field with every condition finds the record.
        for (const f of fieldsOf(r).filter((f) => !f.meta.writeOnly)) {
          for (const condition of searchConditions(f.meta)) {
            for (const { record } of created) {
              const value = searchValue(f, condition, record[f.name]);
              if (value === undefined) continue;
              const q = `&search=${encodeURIComponent(`id:${record.id};${f.name}:${value}`)}&searchFields=${encodeURIComponent(`id:=;${f.name}:${condition}`)}&searchJoin=and`;
              count(name);
              const found = await listAll(r, q);
              expect(
                found.map((x) => x.id),
                `${f.name} ${condition} ${value}`,
              ).toEqual([record.id]);
            }
          }
        }

        // Every sortable field sorts, both ways; numbers, booleans and times in order.
        const system = [
          { name: 'id', kind: 'integer' },
          { name: 'created_at', kind: 'time' },
          { name: 'updated_at', kind: 'time' },
        ];
        for (const f of [...fieldsOf(r).filter((f) => f.meta.sort), ...system]) {
          for (const order of ['asc', 'desc']) {
            count(name);
            const res = await call('GET', `${api(r)}?size=1000&orderBy=${f.name}&sortedBy=${order}`);
            if (f.kind === 'time' && !r.timestamps) {
              // No such column: refused, naming the parameter.
              expect(res.status, `orderBy=${f.name} without timestamps: ${res.body}`).toBe(422);
              continue;
            }
            expect(res.status, `orderBy=${f.name}: ${res.body}`).toBe(200);
            const rows = (res.json!.data as { data: RecordOf[] }).data;
            const key = (x: RecordOf) => {
              const v = x[f.name];
              if (v === null || v === undefined) return null;
              if (f.kind === 'integer' || f.kind === 'number') return Number(v);
              if (f.kind === 'boolean') return v ? 1 : 0;
              if (f.kind === 'time' || (f as Field).json?.format === 'date-time')
                return Date.parse(String(v));
              return null;
            };
            const keys = rows.map(key).filter((k): k is number => k !== null);
            const sorted = [...keys].sort((a, b) => (order === 'asc' ? a - b : b - a));
            expect(keys, `orderBy=${f.name} ${order}`).toEqual(sorted);
          }
        }

        // Updates (a random subset of fields) are stored; deletes remove.
        if (hasOperation(r, 'update')) {
          const changes = await validBodies(r, seed + 1, created.length);
          for (const [i, { record }] of created.entries()) {
            const change = changes[i];
            if (!change) continue;
            const keys = Object.keys(change).filter((_, k) => (k + i) % 2 === 0);
            const patch = Object.fromEntries(keys.map((k) => [k, change[k]]));
            count(name);
            const res = await call('PATCH', `${api(r)}/${record.id}`, patch);
            expect(res.status, `PATCH ${JSON.stringify(patch)} -> ${res.body}`).toBe(200);
            expectStored(r, patch, res.json!.data as RecordOf);
          }
        }
        if (hasOperation(r, 'delete')) {
          for (const { record } of created) {
            count(name);
            const res = await call('DELETE', `${api(r)}/${record.id}`);
            expect(res.status, res.body).toBe(200);
            expect((await call('GET', `${api(r)}/${record.id}`)).status).toBe(404);
          }
        }
      },
    );

    it.runIf(creatable)(
      'answers an invalid value of each kind in each writable field with a 422 naming it',
      async () => {
        const [base] = await validBodies(r, seed + 2, 1);
        const failures: string[] = [];
        for (const f of writable(r)) {
          for (const bad of invalidValues(f)) {
            count(name);
            const before = (await listAll(r)).length;
            const body = { ...base, [f.name]: bad };
            const res = await call('POST', api(r), body);
            const named = Object.keys(res.json?.errors ?? {}).some(
              (k) => k === f.name || k.startsWith(`${f.name}.`),
            );
            if (res.status !== 422 || !named)
              failures.push(
                `${f.name}=${JSON.stringify(bad).slice(0, 60)} -> ${res.status} ${res.body.slice(0, 200)}`,
              );
            if (res.status === 201) await call('DELETE', `${api(r)}/${(res.json!.data as RecordOf).id}`);
            else expect((await listAll(r)).length).toBe(before);
          }
        }
        expect(failures).toEqual([]);
      },
    );

    it.runIf(creatable && hasOperation(r, 'delete'))(
      'deletes a record another refers to only consistently (409, set null or cascade)',
      async () => {
        const referrers = registry.flatMap((other) =>
          hasOperation(other, 'create')
            ? writable(other)
                .filter((f) => f.kind === 'reference' && f.target === r.name && other.name !== r.name)
                .map((f) => ({ other, f }))
            : [],
        );
        for (const { other, f } of referrers) {
          const [targetBody] = await validBodies(r, seed + 3, 1);
          const target = await call('POST', api(r), targetBody);
          expect(target.status, target.body).toBe(201);
          const targetId = (target.json!.data as RecordOf).id;
          const [childBody] = await validBodies(other, seed + 4, 1);
          const child = await call('POST', api(other), { ...childBody, [f.name]: targetId });
          expect(child.status, child.body).toBe(201);
          const childId = (child.json!.data as RecordOf).id;
          count(name);
          const res = await call('DELETE', `${api(r)}/${targetId}`);
          const after = await call('GET', `${api(other)}/${childId}`);
          const cascades = Object.values(r.options.hasMany ?? {}).some(
            (h) => h.resource === other.name && h.foreignKey === f.name,
          );
          if (f.required && !cascades) {
            // RESTRICT: the record is still needed.
            expect(res.status, `${other.name}.${f.name} still refers: ${res.body}`).toBe(409);
            expect(res.json?.data).toBeNull();
            expect((after.json?.data as RecordOf).id).toBe(childId);
          } else if (res.status === 200) {
            if (cascades) expect(after.status).toBe(404);
            else expect((after.json!.data as RecordOf)[f.name]).toBeNull();
          } else {
            // A module rule may refuse (departments with staff): then nothing changed.
            expect(res.status, res.body).toBe(409);
            expect((after.json!.data as RecordOf)[f.name]).toBe(targetId);
          }
        }
      },
    );

    it.runIf(hasOperation(r, 'export'))(
      'exports any data completely, and importing the export back changes nothing',
      async () => {
        if (creatable) {
          for (const body of await validBodies(r, seed + 5, RUNS)) {
            const res = await call('POST', api(r), body);
            expect(res.status, res.body).toBe(201);
          }
        }
        const before = await listAll(r);
        // An import rewrites every row it reads: when and by whom (issue 30: `updated_by` on every write path),
        // and every write is a new version (issue 36).
        const strip = (x: RecordOf) => ({
          ...x,
          updated_at: undefined,
          updated_by: undefined,
          version: undefined,
        });
        // The product's own file, untouched, in either language (read back in the other one): the ID column
        // matches the records (no `upsert` needed), names and labels map back, nothing changes.
        for (const [lang, other] of [
          ['zh-CN', 'en'],
          ['en', 'zh-CN'],
        ]) {
          count(name);
          const exported = await t.request({
            url: `${api(r)}/export`,
            token,
            headers: { 'accept-language': lang! },
          });
          expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200);
          const rows = parseCsv(exported.body.replace(/^\uFEFF/, ''), {
            relax_column_count: false,
          }) as string[][];
          expect(rows.length, 'header + one line per record').toBe(before.length + 1);
          if (!hasOperation(r, 'import')) continue;
          count(name);
          const boundary = 'propertytests';
          const payload = Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.csv"\r\nContent-Type: text/csv\r\n\r\n`,
            ),
            Buffer.from(exported.body),
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]);
          const imported = await t.request({
            method: 'POST',
            url: `${api(r)}/import`,
            token,
            headers: {
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'accept-language': other!,
            },
            payload,
          });
          expect(imported.statusCode, `${lang}: ${imported.body.slice(0, 500)}`).toBe(200);
          // Rows whose values do not change are left alone and counted (issue 35).
          expect(imported.json().data).toMatchObject({
            created: 0,
            updated: 0,
            unchanged: before.length,
          });
          const after = await listAll(r);
          expect(after.map(strip), lang).toEqual(before.map(strip));
        }
      },
    );
  },
  // Each test makes dozens to a few hundred requests (argon2 for passwords): generous on a loaded machine.
  180_000,
);

/** Values a field must refuse, by kind: wrong types, out of bounds, NUL and lone surrogates, unknown options. */
function invalidValues(f: Field): unknown[] {
  const s = f.json;
  switch (f.kind) {
    case 'reference':
      return ['abc', '9223372036854775808', '99999999999999999999'];
    case 'references':
      return [['abc'], 'abc', ['9223372036854775808']];
    case 'boolean':
      return ['maybe', 2];
    case 'enum':
      return ['__nope__', 7];
    case 'integer':
      // Past the bounds, or past a 32-bit integer column when the schema has none.
      return [
        1.5,
        'abc',
        typeof s.maximum === 'number' && s.maximum < 2 ** 31 ? s.maximum + 1 : 2 ** 31,
        typeof s.minimum === 'number' && s.minimum > -(2 ** 31) ? s.minimum - 1 : -(2 ** 31) - 1,
      ];
    case 'number':
      return ['abc', typeof s.minimum === 'number' ? s.minimum - 1 : '1e309'];
    case 'string': {
      const out: unknown[] = [12345, { a: 1 }, 'a\u0000b', 'x\ud800y'];
      if (typeof s.maxLength === 'number') out.push('x'.repeat(s.maxLength + 1));
      if (f.meta.dictionary) out.push('__not_an_entry__');
      return out;
    }
    case 'array':
      return ['text', { a: 1 }];
    default:
      return ['text', 12];
  }
}
