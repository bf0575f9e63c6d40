import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasOperation, isSoftDelete, type Resource } from '../../resources/define.ts';
import { fieldsOf, type FieldInfo } from '../../resources/fields.ts';
import { readMigrations } from '../../server/db/migrate.ts';
import { includeNames } from '../../server/engine/list/query.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { resources as registry } from '../fixtures/registry.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { bySize, generatedCases } from '../helpers/generated.ts';

/**
 * Concurrent writers, generated per resource (issue 36, "Nothing lost"): for every resource of the product's
 * registry and the fixture's that can be updated, two clients A and B work on one record with versions, in a
 * seeded random interleaving of reads, writes and writes sent by both at once (on PostgreSQL these race on
 * two connections). Each write sets one field (chosen from the definition: a plain text or integer field) to
 * a value no other write uses, with the version the client last saw. The oracle is the list of acknowledged
 * writes kept here:
 * - a write over the current version is a 200 answering the next version; a stale one is a 409 whose `data`
 *   is the record as it is, and it changes nothing;
 * - of two writes sent at once over the same version exactly one wins;
 * - at the end the record holds the last acknowledged write, and its history lists every acknowledged
 *   version with the value it wrote: none is lost silently, each is current or overwritten by a later one;
 * - restoring a random acknowledged version gives that version's value back as a new version.
 */
const SEED = 36_01;
/** Steps per resource; a sample under `npm run test:pg` (tests/helpers/generated.ts). */
const STEPS = bySize({ full: 24, sample: 10 });

let t: TestApp;
let token: string;
const cases: Record<string, number> = {};
const conflictCount: Record<string, number> = {};
const trashCases: Record<string, number> = {};

beforeAll(async () => {
  const fixtures = {
    ...createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS }),
    name: 'fixture-resources',
  };
  t = await createTestApp({}, { extraModules: [fixtures] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  token = await t.adminToken();
}, 180_000);
afterAll(async () => {
  console.info(
    `[versions] seed ${SEED}, ${STEPS} steps per resource (${generatedCases}); generated cases: ${JSON.stringify(cases)} ` +
      `(total ${Object.values(cases).reduce((a, b) => a + b, 0)}); 409s seen: ` +
      `${Object.values(conflictCount).reduce((a, b) => a + b, 0)}; trash then restore: ${JSON.stringify(trashCases)}; ` +
      `restores with inline children: ${JSON.stringify(inlineRestores)}`,
  );
  await t.close();
});

/** A small seeded generator (mulberry32): the same interleavings on every run. */
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
type Answer = { status: number; body: { data: unknown; errors?: Record<string, string[]> } };

async function call(
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
): Promise<Answer & { raw: string }> {
  const res = await t.request({ method, url, token, ...(payload ? { payload } : {}) });
  const raw = res.body;
  const json = String(res.headers['content-type'] ?? '').includes('json');
  return { status: res.statusCode, body: (json ? JSON.parse(raw) : {}) as Answer['body'], raw };
}

const api = (r: Resource) => `/api/${r.endpoint}`;
const updatable = registry.filter((r) => hasOperation(r, 'update') && hasOperation(r, 'read'));

type Writable = { field: FieldInfo; valueOf: (n: number) => unknown };

/** The plain fields a write may set (text, integers: no uniqueness, dictionary, relation or enum). */
function plainFields(r: Resource): Writable[] {
  return fieldsOf(r)
    .filter(
      (f) =>
        f.isColumn &&
        !f.meta.unique &&
        !f.meta.readOnly &&
        !f.meta.writeOnly &&
        !f.meta.dictionary &&
        !f.meta.relation &&
        f.enumValues.length === 0,
    )
    .flatMap((f): Writable[] => {
      if ((f.kind === 'string' || f.kind === 'text') && f.schema.safeParse('v-1').success)
        return [{ field: f, valueOf: (n) => `v-${n}` }];
      // An integer named like an id (a department's parent_id) points somewhere: not a plain value.
      if (f.kind === 'int' && !f.name.endsWith('_id') && f.schema.safeParse(1000).success)
        return [{ field: f, valueOf: (n) => n % 1000 }];
      return [];
    });
}

/** The field each write sets: plain text, else an integer, from the definition; null: writes carry nothing. */
function fieldToWrite(r: Resource): Writable | null {
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
    (f) => (f.kind === 'string' || f.kind === 'text') && f.schema.safeParse('v-1').success,
  );
  if (text) return { field: text, valueOf: (n) => `v-${n}` };
  const int = plain.find((f) => f.kind === 'int' && f.schema.safeParse(1000).success);
  if (int) return { field: int, valueOf: (n) => n };
  return null;
}

/** A minimal valid body for a create (required fields only; references to a record of their target). */
async function minimalBody(r: Resource, depth = 0): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  for (const f of fieldsOf(r)) {
    if (f.isOptional || f.hasDefault || f.meta.readOnly) continue;
    if (f.meta.relation) {
      const target = registry.find((x) => x.name === f.meta.relation!.resource)!;
      const id = (await someRecord(target, depth + 1)).id;
      body[f.name] = f.kind === 'references' ? [id] : id;
    } else if (f.enumValues.length) body[f.name] = f.enumValues[0];
    else if (f.kind === 'int' || f.kind === 'number') body[f.name] = Number(f.intRange?.min ?? 1) || 1;
    else if (f.kind === 'boolean') body[f.name] = true;
    else body[f.name] = `seed-${r.name}-${(serial += 1)}`.slice(0, 30);
  }
  return body;
}
let serial = 0;

/** A record of the resource: the first one listed, or one created for the test. */
async function someRecord(r: Resource, depth = 0): Promise<Rec> {
  const listed = await call('GET', `${api(r)}?size=1&orderBy=id&sortedBy=asc`);
  const first = (listed.body.data as { data?: Rec[] } | null)?.data?.[0];
  if (first) return first;
  if (depth > 3 || !hasOperation(r, 'create')) throw new Error(`no ${r.name} record to work on`);
  const created = await call('POST', api(r), await minimalBody(r, depth));
  if (created.status !== 201) throw new Error(`creating a ${r.name}: ${JSON.stringify(created.body)}`);
  return created.body.data as Rec;
}

/**
 * The inline has-many lists of a resource (hasMany ... inline), each with a generated item (its required
 * fields and plain fields, no unique ones) and the content a restore must bring back (items without ids,
 * sorted).
 */
function inlineListsOf(r: Resource) {
  return Object.entries(r.options.hasMany ?? {})
    .filter(([, spec]) => spec.inline)
    .map(([key, spec]) => {
      const child = registry.find((x) => x.name === spec.resource)!;
      const plain = plainFields(child).filter((p) => p.field.name !== spec.foreignKey);
      const required = fieldsOf(child).filter(
        (f) => !f.isOptional && !f.hasDefault && !f.meta.readOnly && f.name !== spec.foreignKey,
      );
      const shown = [...new Set([...plain.map((p) => p.field.name), ...required.map((f) => f.name)])];
      return {
        key,
        item: (n: number) => ({
          ...Object.fromEntries(required.map((f) => [f.name, f.kind === 'int' ? 1 : `i-${n}`])),
          ...Object.fromEntries(plain.map((p) => [p.field.name, p.valueOf(n)])),
        }),
        content: (items: unknown) =>
          ((items ?? []) as Record<string, unknown>[])
            .map((item) => JSON.stringify(shown.map((f) => item[f] ?? null)))
            .sort(),
      };
    });
}
const inlineRestores: Record<string, number> = {};

describe('concurrent writers with versions, per resource', () => {
  it('generates resources to test', () => {
    expect(updatable.length).toBeGreaterThan(5);
  });

  for (const [index, r] of updatable.entries()) {
    it(`${r.name}: no acknowledged write is lost, stale writes change nothing, restore gives a version back`, async () => {
      const next = random(SEED + index);
      const chosen = fieldToWrite(r);
      const lists = inlineListsOf(r);
      const first = await someRecord(r);
      const url = `${api(r)}/${first.id}`;
      // With its inline lists, as a write's answer embeds them (the oracle compares whole records).
      const start = lists.length
        ? ((await call('GET', `${url}?include=${lists.map((l) => l.key).join(',')}`)).body.data as Rec)
        : first;
      const name = chosen?.field.name;
      // The oracle: the value each acknowledged version holds (the start included).
      const valueAt = new Map<number, unknown>([[start.version, name ? start[name] : null]]);
      let current = start.version;
      const known = { A: start.version, B: start.version };
      let writes = 0;
      let conflicts = 0;
      // Besides the chosen field, a write sets each other plain field half the time: a restore then has
      // several fields to bring back.
      const others = plainFields(r).filter((o) => o.field.name !== name);
      const write = (client: 'A' | 'B') => {
        writes += 1;
        const value = chosen ? chosen.valueOf(SEED * 1000 + writes) : null;
        const extra = Object.fromEntries(
          others.filter(() => next() < 0.5).map((o) => [o.field.name, o.valueOf(writes * 7 + 1)]),
        );
        // A resource with inline lists: a write replaces a list's children half the time (restore and
        // history then carry them, inline-history.ts).
        const children = Object.fromEntries(
          lists
            .filter(() => next() < 0.5)
            .map((l) => [
              l.key,
              Array.from({ length: 1 + Math.floor(next() * 2) }, (_, i) => l.item(writes * 10 + i)),
            ]),
        );
        const body = { ...extra, ...children, ...(name ? { [name]: value } : {}), version: known[client] };
        return { client, value, over: known[client], sent: call('PATCH', url, body) };
      };
      // The whole record as of each acknowledged version: a 409 must carry one that was current meanwhile.
      const recordAt = new Map<number, Rec>([[start.version, start]]);
      const answer = async (w: ReturnType<typeof write>) => ({ w, res: await w.sent });
      const settle = ({ w, res }: Awaited<ReturnType<typeof answer>>, currentBefore: number): boolean => {
        const data = res.body.data as Rec;
        if (res.status === 200) {
          expect(w.over, `${r.name}: a write over ${w.over} won while ${current} was current`).toBe(current);
          expect(data.version).toBe(current + 1);
          current = data.version;
          valueAt.set(current, w.value);
          recordAt.set(current, data);
          if (name) expect(data[name]).toEqual(w.value);
        } else {
          expect(res.status, JSON.stringify(res.body)).toBe(409);
          expect(Object.keys(res.body.errors ?? {})).toEqual(['version']);
          expect(w.over).not.toBe(data.version);
          // The then-current record: a version current between the send and the answer, as it was stored.
          expect(data.version).toBeGreaterThanOrEqual(currentBefore);
          expect(data.version).toBeLessThanOrEqual(current);
          expect(data, `${r.name}: the 409 of a write over ${w.over}`).toEqual(recordAt.get(data.version));
          conflicts += 1;
        }
        known[w.client] = data.version;
        return res.status === 200;
      };
      for (let step = 0; step < STEPS; step++) {
        const roll = next();
        const client = next() < 0.5 ? 'A' : 'B';
        if (roll < 0.2) {
          const read = await call('GET', url);
          known[client] = (read.body.data as Rec).version;
        } else if (roll < 0.6) {
          const before = current;
          settle(await answer(write(client)), before);
        } else {
          // Both at once: over the same version exactly one wins. Winners are settled first (the oracle's
          // order of acknowledged versions), then the 409s, each checked against what was current meanwhile.
          const same = known.A === known.B;
          const before = current;
          const both = await Promise.all([answer(write('A')), answer(write('B'))]);
          both.sort((x, y) => Number(x.res.status !== 200) - Number(y.res.status !== 200));
          const won = both.map((a) => settle(a, before));
          if (same) expect(won.filter(Boolean)).toHaveLength(1);
        }
        cases[r.name] = (cases[r.name] ?? 0) + 1;
      }

      conflictCount[r.name] = conflicts;
      // The record holds the last acknowledged write; a stale write left nothing behind.
      const end = (await call('GET', url)).body.data as Rec;
      expect(end.version).toBe(current);
      if (name) expect(end[name]).toEqual(valueAt.get(current));
      // Every acknowledged version is in the history with the value it wrote.
      const history = await call('GET', `${url}/history?size=100`);
      expect(history.status).toBe(200);
      const entries = (
        history.body.data as { data: { version: number; changes: Record<string, unknown[]> }[] }
      ).data;
      for (const [version, value] of valueAt) {
        if (version === start.version) continue;
        const entry = entries.find((e) => e.version === version);
        expect(entry, `${r.name}: version ${version} is not in the history`).toBeDefined();
        if (name && entry!.changes[name]) expect(entry!.changes[name]![1]).toEqual(value);
      }
      // Restore a random acknowledged version: its value comes back as a new version.
      const versions = [...valueAt.keys()].filter((v) => entries.some((e) => e.version === v));
      if (versions.length) {
        const target = versions[Math.floor(next() * versions.length)]!;
        const restored = await call('POST', `${url}/restore`, { version: target });
        expect(restored.status, JSON.stringify(restored.body)).toBe(200);
        const data = restored.body.data as Rec;
        expect(data.version).toBe(current + 1);
        if (name) expect(data[name]).toEqual(valueAt.get(target));
        // Every field the caller may write holds that version's value.
        const then = recordAt.get(target)!;
        for (const f of fieldsOf(r)) {
          if (f.meta.readOnly || f.meta.writeOnly || !(f.name in then)) continue;
          expect(data[f.name], `${r.name}.${f.name} restored to version ${target}`).toEqual(then[f.name]);
        }
        // And its inline children as they were then (a child gone since comes back under a new id).
        for (const l of lists) {
          expect(l.content(data[l.key]), `${r.name}.${l.key} restored to version ${target}`).toEqual(
            l.content(then[l.key]),
          );
          inlineRestores[r.name] = (inlineRestores[r.name] ?? 0) + 1;
        }
        cases[r.name] = (cases[r.name] ?? 0) + 1;
      }
    }, 120_000);
  }
});

/**
 * Trash then restore, generated per resource that keeps a trash (`softDelete`, default on): a fresh record
 * with every optional field the definition lets the test fill (plain text, references to existing records,
 * one inline child of each inline list), linked from a record of every resource whose many-to-many field
 * points here. Trashed, it is absent from read (404), the list, `id:in` (what a reference input asks for),
 * the export and the linking record's field and include, and present in the trash; restored, its read with
 * every include is the same bytes as before, and the link is back.
 */
const TRASH_RUNS = bySize({ full: 2, sample: 1 });
const trashable = registry.filter(
  (r) =>
    isSoftDelete(r) && (['create', 'read', 'list', 'delete'] as const).every((op) => hasOperation(r, op)),
);

/** A create body with the optional fields the test can fill as well as the required ones. */
async function fullBody(r: Resource): Promise<Record<string, unknown>> {
  const body = await minimalBody(r);
  for (const f of fieldsOf(r)) {
    if (f.name in body || f.meta.readOnly || f.meta.writeOnly || f.meta.dictionary) continue;
    if (f.meta.relation) {
      const target = registry.find((x) => x.name === f.meta.relation!.resource)!;
      if (target.name === r.name) continue;
      // A target with no record and no create route (assets: uploads) is left empty.
      const id = await someRecord(target, 1).then(
        (rec) => rec.id,
        () => null,
      );
      if (id === null) continue;
      body[f.name] = f.kind === 'references' ? [id] : id;
    } else if ((f.kind === 'string' || f.kind === 'text') && f.enumValues.length === 0) {
      const value = `opt-${r.name}-${(serial += 1)}`.slice(0, 30);
      if (f.schema.safeParse(value).success) body[f.name] = value;
    }
  }
  for (const [key, spec] of Object.entries(r.options.hasMany ?? {})) {
    if (!spec.inline) continue;
    const child = registry.find((x) => x.name === spec.resource)!;
    const childBody = await minimalBody(child);
    delete childBody[spec.foreignKey];
    body[key] = [childBody];
  }
  return body;
}

/** The includes the administrator may ask for on a record (assets' includes need their own page). */
async function readableIncludes(r: Resource, url: string): Promise<string[]> {
  const names = [];
  for (const name of includeNames(r))
    if ((await call('GET', `${url}?include=${name}`)).status === 200) names.push(name);
  return names;
}

/** Records of other resources whose many-to-many field points at resources of this kind. */
function linkersOf(r: Resource): { holder: Resource; field: FieldInfo }[] {
  return registry.flatMap((holder) =>
    holder.name === r.name || !hasOperation(holder, 'update') || !hasOperation(holder, 'read')
      ? []
      : fieldsOf(holder)
          .filter((f) => f.kind === 'references' && f.meta.relation?.resource === r.name && !f.meta.readOnly)
          .map((field) => ({ holder, field })),
  );
}

/** The ids in the first column of a CSV export (the ID column). */
function exportedIds(csv: string): string[] {
  return csv
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(',')[0]!.replace(/^"|"$/g, ''));
}

describe('trash then restore, per resource', () => {
  it('generates resources to test', () => {
    expect(trashable.length).toBeGreaterThan(5);
  });

  for (const r of trashable) {
    it(`${r.name}: a trashed record is gone from every read path and comes back byte for byte`, async () => {
      for (let run = 0; run < TRASH_RUNS; run++) {
        const created = await call('POST', api(r), await fullBody(r));
        expect(created.status, `${r.name}: ${created.raw}`).toBe(201);
        const id = (created.body.data as Rec).id;
        const url = `${api(r)}/${id}`;
        const include = (await readableIncludes(r, url)).join(',');
        const readUrl = include ? `${url}?include=${include}` : url;
        // Links from every resource whose many-to-many field points here (a record of each, this one added).
        const links = [];
        for (const { holder, field } of linkersOf(r)) {
          // The first record the administrator may link (not its own staff record: its roles are not its own
          // to change).
          await someRecord(holder);
          const page = await call('GET', `${api(holder)}?size=20&orderBy=id&sortedBy=desc`);
          for (const rec of (page.body.data as { data: Rec[] }).data) {
            const ids = [...((rec[field.name] as string[] | undefined) ?? []), id];
            const linked = await call('PATCH', `${api(holder)}/${rec.id}`, { [field.name]: ids });
            if (linked.status === 403) continue;
            expect(linked.status, `${holder.name}.${field.name}: ${linked.raw}`).toBe(200);
            links.push({ holder, field, url: `${api(holder)}/${rec.id}` });
            break;
          }
        }
        const before = await call('GET', readUrl);
        expect(before.status, `${readUrl}: ${before.raw}`).toBe(200);
        const exported = hasOperation(r, 'export');
        if (exported) expect(exportedIds((await call('GET', `${api(r)}/export`)).raw)).toContain(id);

        let deleted = await call('DELETE', url);
        if (deleted.status === 409 && deleted.body.errors?.holders) {
          // A holder's 409 (a role its staff hold): the links go, the trash is tested without them.
          for (const link of links.splice(0)) {
            const rec = (await call('GET', link.url)).body.data as Rec;
            const ids = (rec[link.field.name] as string[]).filter((x) => x !== id);
            expect((await call('PATCH', link.url, { [link.field.name]: ids })).status).toBe(200);
          }
          deleted = await call('DELETE', url);
        }
        expect(deleted.status, `${r.name}: ${deleted.raw}`).toBe(200);
        const beforeRaw = links.length ? (await call('GET', readUrl)).raw : before.raw;

        // Gone from the read, the list, the reference options and the export; in the trash.
        expect((await call('GET', url)).status).toBe(404);
        const listed = await call('GET', `${api(r)}?size=1000&orderBy=id&sortedBy=desc`);
        expect((listed.body.data as { data: Rec[] }).data.map((x) => x.id)).not.toContain(id);
        const options = await call('GET', `${api(r)}?search=id:${id}&searchFields=id:in`);
        expect((options.body.data as { data: Rec[] }).data).toEqual([]);
        if (exported) expect(exportedIds((await call('GET', `${api(r)}/export`)).raw)).not.toContain(id);
        const trash = await call('GET', `${api(r)}/trash?size=1000`);
        expect(trash.status, trash.raw).toBe(200);
        expect((trash.body.data as { data: Rec[] }).data.map((x) => x.id)).toContain(id);
        for (const { holder, field, url: holderUrl } of links) {
          const name = includeNames(holder).find((n) => n.startsWith(field.name.replace(/_ids$/, '')));
          const seen = await call('GET', name ? `${holderUrl}?include=${name}` : holderUrl);
          const rec = seen.body.data as Rec;
          expect(rec[field.name], `${holder.name}.${field.name}`).not.toContain(id);
          if (name) expect((rec[name] as Rec[]).map((x) => x.id)).not.toContain(id);
        }

        // Restored: the same bytes, the links back.
        const restored = await call('POST', `${api(r)}/trash/${id}/restore`);
        expect(restored.status, restored.raw).toBe(200);
        const after = await call('GET', readUrl);
        expect(after.raw, `${r.name} ${id} read after restore`).toBe(links.length ? before.raw : beforeRaw);
        for (const { holder, field, url: holderUrl } of links) {
          const rec = (await call('GET', holderUrl)).body.data as Rec;
          expect(rec[field.name], `${holder.name}.${field.name}`).toContain(id);
        }
        trashCases[r.name] = (trashCases[r.name] ?? 0) + 1;
      }
    }, 120_000);
  }
});
