import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasOperation, isSoftDelete, type Resource } from '../../resources/define.ts';
import { fieldsOf, type FieldInfo } from '../../resources/fields.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { permissionFor } from '../../server/engine/access.ts';
import { FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { resources as registry } from '../fixtures/registry.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { bySize, generatedCases } from '../helpers/generated.ts';
import { multipartFile } from '../helpers/upload.ts';
import { createUser, type TestUser } from '../helpers/users.ts';

/**
 * Undo of an operation, generated per resource (issue 36 item 5): for every resource of the product's
 * registry and the fixture's with a plain text or integer field to write, seeded rounds of
 * - a random operation by the administrator: a bulk PATCH of that field over a random subset, a bulk DELETE of
 *   records the test created (soft-delete resources), or a CSV import (`upsert=id`, the resource's own export
 *   with new values in some rows);
 * - random later writes by another administrator on some of the operation's records (a PATCH, or a restore
 *   from the trash of a deleted one);
 * - a caller of another account holding the same permissions asks to undo it: 404;
 * - the operator undoes it. The oracle is this file's own model of the writes: the records not written since
 *   are `reverted` and hold their values from before the operation again (a deleted one is back in the list);
 *   the others are listed in `skipped`, with a sentence, and keep the later write. A second undo is a 409.
 */
const SEED = 36_05;
/** Records worked on and rounds per resource; a sample under `npm run test:pg` (tests/helpers/generated.ts). */
const RECORDS = bySize({ full: 6, sample: 3 });
const ROUNDS = bySize({ full: 3, sample: 2 });

let t: TestApp;
let token: string;
let other: TestUser;
const cases: Record<string, number> = {};

beforeAll(async () => {
  const fixtures = {
    ...createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS }),
    name: 'fixture-resources',
  };
  t = await createTestApp({}, { extraModules: [fixtures] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  token = await t.adminToken();
  other = await createUser(t.db, { staff: { isAdmin: true } });
}, 180_000);
afterAll(async () => {
  console.info(
    `[undo] seed ${SEED}, ${RECORDS} records x ${ROUNDS} rounds per resource (${generatedCases}); generated cases: ` +
      `${JSON.stringify(cases)} (total ${Object.values(cases).reduce((a, b) => a + b, 0)})`,
  );
  await t.close();
});

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

type Rec = Record<string, unknown> & { id: string; version: number };
type Answer = {
  status: number;
  body: { data: unknown; meta?: { operation_id?: string }; message?: string };
};

async function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  { payload, as = token }: { payload?: object; as?: string } = {},
): Promise<Answer> {
  const res = await t.request({ method, url, token: as, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() as Answer['body'] };
}

const api = (r: Resource) => `/api/${r.endpoint}`;
const workable = registry.filter(
  (r) => hasOperation(r, 'update') && hasOperation(r, 'read') && hasOperation(r, 'list'),
);

/** The field the operations write: plain text, else an integer, from the definition. */
function fieldToWrite(r: Resource): { field: FieldInfo; valueOf: (n: number) => unknown } | null {
  const plain = fieldsOf(r).filter(
    (f) =>
      f.isColumn &&
      !f.meta.unique &&
      !f.meta.readOnly &&
      !f.meta.writeOnly &&
      !f.meta.dictionary &&
      !f.meta.relation &&
      f.enumValues.length === 0,
  );
  const text = plain.find(
    (f) => (f.kind === 'string' || f.kind === 'text') && f.schema.safeParse('u-1').success,
  );
  if (text) return { field: text, valueOf: (n) => `u-${n}` };
  const int = plain.find((f) => f.kind === 'int' && f.schema.safeParse(1000).success);
  if (int) return { field: int, valueOf: (n) => 1000 + n };
  return null;
}

let serial = 0;
/** Records this file created: only those are deleted in bulk. */
const madeByTest = new Set<string>();
/** A minimal valid body for a create (required fields; references to a record of their target). */
async function minimalBody(r: Resource, depth = 0): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const f of fieldsOf(r)) {
    if (f.isOptional || f.hasDefault || f.meta.readOnly) continue;
    if (f.meta.relation) {
      const target = registry.find((x) => x.name === f.meta.relation!.resource)!;
      const id = (await someRecords(target, 1, depth + 1))[0]!.id;
      body[f.name] = f.kind === 'references' ? [id] : id;
    } else if (f.enumValues.length) body[f.name] = f.enumValues[0];
    else if (f.kind === 'int' || f.kind === 'number') body[f.name] = Number(f.intRange?.min ?? 1) || 1;
    else if (f.kind === 'boolean') body[f.name] = true;
    else body[f.name] = `undo-${r.name}-${(serial += 1)}`.slice(0, 30);
  }
  return body;
}

/** `count` records of the resource: created for the test where it can, else the first ones listed. */
async function someRecords(r: Resource, count: number, depth = 0): Promise<Rec[]> {
  const made: Rec[] = [];
  if (hasOperation(r, 'create') && depth <= 3)
    for (let i = 0; i < count; i++) {
      const created = await call('POST', api(r), { payload: await minimalBody(r, depth) });
      if (created.status !== 201) break;
      made.push(created.body.data as Rec);
      madeByTest.add((created.body.data as Rec).id);
    }
  if (made.length >= count) return made;
  const listed = await call('GET', `${api(r)}?size=${count}&orderBy=id&sortedBy=asc`);
  const rows = ((listed.body.data as { data?: Rec[] } | null)?.data ?? []).filter(
    (x) => !made.some((m) => m.id === x.id),
  );
  return [...made, ...rows].slice(0, count);
}

const pick = <T>(next: () => number, list: T[], atLeast = 1): T[] => {
  const chosen = list.filter(() => next() < 0.5);
  for (const x of list) if (chosen.length < atLeast && !chosen.includes(x)) chosen.push(x);
  return chosen;
};

describe('undo of an operation, per resource', () => {
  it('generates resources to test', () => {
    expect(workable.filter(fieldToWrite).length).toBeGreaterThan(5);
  });

  for (const [index, r] of workable.entries()) {
    const chosen = fieldToWrite(r);
    if (!chosen) continue;
    const name = chosen.field.name;
    const lists = inlineListsOf(r);
    it(`${r.name}: undo reverts exactly the records not written since, once, for its operator`, async () => {
      const next = random(SEED + index);
      const outsider = await createUser(t.db, {
        staff: {
          permissions: (['read', 'update', 'delete', 'import'] as const).map((a) => permissionFor(r, a)),
        },
      });
      const records = await someRecords(r, RECORDS);
      expect(records.length, `${r.name}: records to work on`).toBeGreaterThan(0);
      const created = new Set(records.filter((x) => madeByTest.has(x.id)).map((x) => x.id));
      let value = (index + 1) * 10_000;
      for (let round = 0; round < ROUNDS; round++) {
        // The model: each record's value of the field now (null: not in the list, i.e. in the trash).
        const read = async (id: string) => {
          const res = await call('GET', `${api(r)}/${id}`);
          return res.status === 200 ? (res.body.data as Rec)[name] : undefined;
        };
        const ids = records.map((x) => x.id);
        const before = new Map<string, unknown>();
        for (const id of ids) before.set(id, await read(id));
        // Its inline children (a bulk PATCH may replace them; undo puts them back, inline-history.ts).
        const kidsBefore = new Map<string, string | undefined>();
        if (lists.length) for (const id of ids) kidsBefore.set(id, await readKids(r, id));
        let kidsWritten: string | undefined;
        const live = ids.filter((id) => before.get(id) !== undefined);
        const roll = next();
        const deletable = live.filter((id) => created.has(id));
        // A resource with inline lists starts with a bulk PATCH that replaces them (in the sample too).
        const kind =
          lists.length && round === 0
            ? 'update'
            : roll < 0.35 && hasOperation(r, 'delete') && isSoftDelete(r) && deletable.length
              ? 'delete'
              : roll < 0.7 && hasOperation(r, 'import') && hasOperation(r, 'export')
                ? 'import'
                : 'update';
        let touched: string[];
        let operationId: string | undefined;
        if (kind === 'delete') {
          touched = pick(next, deletable);
          const res = await call('DELETE', `${api(r)}?ids=${touched.join(',')}`);
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          operationId = res.body.meta?.operation_id;
        } else if (kind === 'import') {
          touched = pick(next, live);
          const csv = await t.request({
            url: `${api(r)}/export`,
            token,
            headers: { 'accept-language': 'en' },
          });
          expect(csv.statusCode, csv.body).toBe(200);
          const rows = parse(csv.body.replace(/^\uFEFF/, ''), { relax_column_count: true }) as string[][];
          const header = rows[0]!;
          const idAt = header.findIndex((h) => h === 'ID' || h.toLowerCase() === 'id');
          const label = (await labelOf(r, name)) ?? name;
          const at = header.indexOf(label);
          expect(idAt >= 0 && at >= 0, `${r.name}: columns ${header.join('|')}`).toBe(true);
          const written = new Map<string, unknown>();
          for (const row of rows.slice(1))
            if (touched.includes(row[idAt]!)) {
              const v = chosen.valueOf((value += 1));
              written.set(row[idAt]!, v);
              row[at] = String(v);
            }
          const file = multipartFile('undo.csv', Buffer.from(stringify(rows)), 'text/csv');
          const res = await t.request({
            method: 'POST',
            url: `${api(r)}/import?upsert=id`,
            token,
            ...file,
          });
          expect(res.statusCode, res.body).toBe(200);
          operationId = (res.json() as Answer['body']).meta?.operation_id;
          for (const [id, v] of written) expect(await read(id)).toEqual(v);
        } else {
          touched = pick(next, live);
          const v = chosen.valueOf((value += 1));
          // Half the time the bulk call replaces the inline lists of every record too.
          const kids =
            lists.length && (round === 0 || next() < 0.5)
              ? Object.fromEntries(lists.map((l) => [l.key, l.items(value)]))
              : {};
          const res = await call('PATCH', `${api(r)}?ids=${touched.join(',')}`, {
            payload: { [name]: v, ...kids },
          });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          operationId = res.body.meta?.operation_id;
          if (Object.keys(kids).length) {
            kidsWritten = await readKids(r, touched[0]!);
            expect(kidsWritten).not.toEqual(kidsBefore.get(touched[0]!));
            cases[`${r.name}.update_inline`] = (cases[`${r.name}.update_inline`] ?? 0) + 1;
          }
        }
        expect(operationId, `${r.name} ${kind}: meta.operation_id`).toMatch(/^\d+$/);
        // Later writes by another user on some of the operation's records.
        const later = new Map<string, unknown>();
        for (const id of touched) {
          if (next() >= 0.4) continue;
          if (kind === 'delete') {
            const res = await call('POST', `${api(r)}/trash/${id}/restore`, { as: other.token });
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            later.set(id, before.get(id));
          } else {
            const v = chosen.valueOf((value += 1));
            const res = await call('PATCH', `${api(r)}/${id}`, { payload: { [name]: v }, as: other.token });
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            later.set(id, v);
          }
        }
        const url = `/api/v1/operations/${operationId}/undo`;
        // Someone else's operation is not there for a caller who is not an administrator.
        expect((await call('POST', url, { as: outsider.token })).status).toBe(404);
        const undone = await call('POST', url);
        expect(undone.status, JSON.stringify(undone.body)).toBe(200);
        const data = undone.body.data as { reverted: string[]; skipped: { id: string; reason: string }[] };
        const expectReverted = touched.filter((id) => !later.has(id)).sort();
        expect([...data.reverted].sort(), `${r.name} ${kind}: reverted`).toEqual(expectReverted);
        expect(data.skipped.map((s) => s.id).sort(), `${r.name} ${kind}: skipped`).toEqual(
          [...later.keys()].sort(),
        );
        for (const s of data.skipped) expect(s.reason.length).toBeGreaterThan(5);
        for (const id of ids) {
          const want = later.has(id) ? later.get(id) : before.get(id);
          expect(await read(id), `${r.name} ${kind}: record ${id}`).toEqual(want);
          if (!lists.length || want === undefined) continue;
          // Children: back as before, except on a record written since (the later write left them alone).
          const kidsWant =
            kidsWritten && later.has(id) && touched.includes(id) ? kidsWritten : kidsBefore.get(id);
          expect(await readKids(r, id), `${r.name} ${kind}: children of record ${id}`).toEqual(kidsWant);
        }
        // Once.
        expect((await call('POST', url)).status).toBe(409);
        cases[`${r.name}.${kind}`] = (cases[`${r.name}.${kind}`] ?? 0) + 1;
      }
    }, 120_000);
  }
});

describe('undo of a bulk PATCH that replaced inline children', () => {
  it('leaves a record alone when one of its children was written on its own since', async () => {
    const gadgets = registry.find((r) => r.name === 'gadgets')!;
    const parts = registry.find((r) => r.name === 'gadget_parts')!;
    const [a, b] = await someRecords(gadgets, 2);
    const bulk = await call('PATCH', `${api(gadgets)}?ids=${a!.id},${b!.id}`, {
      payload: { parts: [{ name: 'Undo bolt', quantity: 1 }] },
    });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    const kids = await call('GET', `${api(gadgets)}/${a!.id}?include=parts`);
    const kid = (kids.body.data as { parts: Rec[] }).parts[0]!;
    const direct = await call('PATCH', `${api(parts)}/${kid.id}`, {
      payload: { name: 'Renamed on its own' },
      as: other.token,
    });
    expect(direct.status, JSON.stringify(direct.body)).toBe(200);
    const undone = await call('POST', `/api/v1/operations/${bulk.body.meta!.operation_id}/undo`);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    const data = undone.body.data as { reverted: string[]; skipped: { id: string }[] };
    expect(data.reverted).toEqual([b!.id]);
    expect(data.skipped.map((x) => x.id)).toEqual([a!.id]);
    const after = await call('GET', `${api(gadgets)}/${a!.id}?include=parts`);
    expect((after.body.data as { parts: Rec[] }).parts.map((p) => p.name)).toEqual(['Renamed on its own']);
  });
});

/** The label of a field in English, as the CSV's header names it. */
async function labelOf(r: Resource, field: string): Promise<string | undefined> {
  const { translate } = await import('../../locales/index.ts');
  const key = fieldsOf(r).find((f) => f.name === field)?.meta.label ?? `resources.${r.name}.fields.${field}`;
  const text = translate('en', key);
  return text === key ? undefined : text;
}

/**
 * The inline has-many lists of a resource: items a bulk PATCH may write (required and plain fields, none
 * unique) and the list's content as the oracle compares it (items without ids, sorted).
 */
function inlineListsOf(r: Resource) {
  return Object.entries(r.options.hasMany ?? {})
    .filter(([, spec]) => spec.inline)
    .map(([key, spec]) => {
      const child = registry.find((x) => x.name === spec.resource)!;
      const fields = fieldsOf(child).filter(
        (f) =>
          f.name !== spec.foreignKey &&
          !f.meta.readOnly &&
          !f.meta.unique &&
          !f.meta.writeOnly &&
          !f.meta.relation &&
          !f.meta.dictionary &&
          (f.kind === 'int' || f.kind === 'string' || f.kind === 'text'),
      );
      return {
        key,
        items: (n: number) =>
          [0, 1].map((i) =>
            Object.fromEntries(fields.map((f) => [f.name, f.kind === 'int' ? (n + i) % 100 : `k-${n}-${i}`])),
          ),
        content: (items: unknown) =>
          ((items ?? []) as Record<string, unknown>[])
            .map((item) => JSON.stringify(fields.map((f) => item[f.name] ?? null)))
            .sort(),
      };
    });
}

/** A record's inline children as the oracle compares them; undefined when it cannot be read. */
async function readKids(r: Resource, id: string): Promise<string | undefined> {
  const lists = inlineListsOf(r);
  const res = await call('GET', `${api(r)}/${id}?include=${lists.map((l) => l.key).join(',')}`);
  if (res.status !== 200) return undefined;
  const data = res.body.data as Record<string, unknown>;
  return JSON.stringify(lists.map((l) => l.content(data[l.key])));
}
