import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '../../server/db/migrate.ts';
import { createResourcesModule } from '../../server/engine/module.ts';
import { createGadgetLabels, FIXTURE_MIGRATIONS } from '../fixtures/engine-app.ts';
import { fixtureResources } from '../fixtures/gadgets.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Issue 32 item 6: `GET v1/search` searches the resources of every resources module (here the product's,
 * and the gadgets fixture mounted as a second module) and ranks the merged answer over every match, not
 * within each resource's first rows. Generated records in `departments` (product) and `gadgets` (fixture)
 * hold a needle in their names in different places and cases, exact matches made first (the lowest ids, so
 * a resource's default order, newest first, would not reach them), and some gadgets carry it at the start of
 * their description only. The oracle reads the rows back and ranks them in JS: the label (the name) equal
 * to the needle, then starting with it, then another searched field starting with it, then the rest; then
 * the shorter label, the resource name and the id.
 */
let t: TestApp;
let admin: string;
const NEEDLE = 'qxv';
const PER_RESOURCE = 70;

/** mulberry32: the same records on every run. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const random = rng(3232);
const word = () =>
  Array.from(
    { length: 1 + Math.floor(random() * 6) },
    () => 'abcdefghijklmnoprstuwy'[Math.floor(random() * 22)],
  ).join('');
const cased = (s: string) => [...s].map((c) => (random() < 0.5 ? c.toUpperCase() : c)).join('');

/** A name holding the needle: equal to it, at its start, or inside; or (kind 'other') not at all. */
function nameOf(kind: number): string {
  if (kind === 0) return cased(NEEDLE);
  if (kind === 1) return `${cased(NEEDLE)}${word()}`;
  if (kind === 2) return `${word()} ${cased(NEEDLE)}${word()}`;
  return `${word()} ${word()}`;
}

beforeAll(async () => {
  createGadgetLabels();
  const fixtures = createResourcesModule({ resources: fixtureResources, migrationsDir: FIXTURE_MIGRATIONS });
  t = await createTestApp({}, { extraModules: [{ ...fixtures, name: 'fixture-resources' }] });
  for (const m of readMigrations(FIXTURE_MIGRATIONS)) await t.db.exec(m.sql);
  admin = await t.adminToken();
  const { rows } = await t.db.query<{ id: string }>(
    `INSERT INTO gadget_makers (name) VALUES ('Maker') RETURNING id::text AS id`,
  );
  const maker = rows[0]!.id;
  // Exact matches first (lowest ids), then the rest in a random mix.
  const kinds = (n: number) => [0, 0, ...Array.from({ length: n - 2 }, () => Math.floor(random() * 4))];
  for (const kind of kinds(PER_RESOURCE))
    await t.db.query('INSERT INTO departments (name, parent_id) VALUES ($1, 0)', [nameOf(kind)]);
  for (const [i, kind] of kinds(PER_RESOURCE).entries()) {
    // Some gadgets without the needle in the name have it at the start of the description (rank 2).
    const description = kind === 3 && random() < 0.5 ? `${cased(NEEDLE)} ${word()}` : word();
    await t.db.query(
      'INSERT INTO gadgets (name, sku, price, maker_id, description) VALUES ($1, $2, 1, $3, $4)',
      [nameOf(kind), `SKU-R-${i}`, maker, description],
    );
  }
}, 120_000);

afterAll(() => t?.close());

interface Hit {
  resource: string;
  id: string;
  label: string;
}

/** Every department and gadget matching the needle, ranked as the contract says. */
async function oracle(): Promise<string[]> {
  const read = async (resource: string, sql: string) =>
    (await t.db.query<{ id: string; label: string; other: string | null }>(sql)).rows.map((r) => ({
      resource,
      ...r,
    }));
  const rows = [
    ...(await read(
      'departments',
      `SELECT id::text AS id, name AS label, NULL AS other FROM departments WHERE deleted_at IS NULL`,
    )),
    ...(await read('gadgets', `SELECT id::text AS id, name AS label, description AS other FROM gadgets`)),
  ];
  const needle = NEEDLE.toLowerCase();
  const score = (r: (typeof rows)[number]) => {
    const label = r.label.toLowerCase();
    const other = (r.other ?? '').toLowerCase();
    if (label === needle) return 0;
    if (label.startsWith(needle)) return 1;
    if (other.startsWith(needle)) return 2;
    return label.includes(needle) || other.includes(needle) ? 3 : null;
  };
  return rows
    .map((r) => ({ r, s: score(r) }))
    .filter((x): x is { r: (typeof rows)[number]; s: number } => x.s !== null)
    .sort(
      (a, b) =>
        a.s - b.s ||
        a.r.label.length - b.r.label.length ||
        (a.r.resource < b.r.resource ? -1 : a.r.resource > b.r.resource ? 1 : 0) ||
        Number(BigInt(a.r.id) - BigInt(b.r.id)),
    )
    .map(({ r }) => `${r.resource}:${r.id}`);
}

describe('global search over every module, ranked across them', () => {
  it.each([50, 17, 5, 1])(
    'limit %i: the best matches of both modules, in the oracle order',
    async (limit) => {
      const expected = (await oracle()).slice(0, limit);
      // More matches than the limit in each resource: the ranking is over all of them.
      expect(expected.length).toBe(limit);
      for (const q of [NEEDLE, NEEDLE.toUpperCase()]) {
        const res = await t.request({
          url: `/api/v1/search?q=${q}&limit=${limit}`,
          token: admin,
          headers: { 'accept-language': 'en' },
        });
        expect(res.statusCode, res.body).toBe(200);
        const found = (res.json() as { data: Hit[] }).data.map((h) => `${h.resource}:${h.id}`);
        expect(found).toEqual(expected);
      }
    },
  );

  it('finds records of both modules: the fixture module is searched too', async () => {
    const res = await t.request({ url: `/api/v1/search?q=${NEEDLE}&limit=50`, token: admin });
    const resources = new Set((res.json() as { data: Hit[] }).data.map((h) => h.resource));
    expect([...resources].sort()).toEqual(['departments', 'gadgets']);
  });
});
