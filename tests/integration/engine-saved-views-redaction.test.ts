import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../server/credentials/tokens.ts';
import type { TestApp } from '../helpers/app.ts';
import { createGadgetApp } from '../fixtures/engine-app.ts';

/**
 * A shared saved view as a reader who may not see some fields (review of issue 37, item R2): generated views
 * over the gadgets' fields, generated readers each with some fields hidden; every reader's copy holds exactly
 * the pairs that name fields it may see (search pairs, searchFields entries, sort fields, columns), each as
 * written, and the owner's copy is the view as saved. The oracle below knows only the field lists and who
 * hides what; it shares no code with the server's redaction. Seeded, so every run makes the same views. On
 * PGlite and, under `npm run test:pg`, PostgreSQL.
 */
const VIEWS = '/api/v1/user/views';

/**
 * Searchable gadget fields (tests/fixtures/gadgets.ts): a value valid under the field's default condition
 * (a pair without a searchFields entry) and under each condition listed here.
 */
const SEARCH: Record<string, { value: string; conditions: string[]; isText: boolean }> = {
  name: { value: 'Wid\\;get', conditions: ['like', '=', '<>'], isText: true },
  sku: { value: 'SKU-1', conditions: ['='], isText: false },
  description: { value: 'soft', conditions: ['like'], isText: true },
  email: { value: 'a@b.example', conditions: ['=', 'like'], isText: true },
  price: { value: '1,20', conditions: ['between'], isText: false },
  stock: { value: '7', conditions: ['=', '>=', '<>'], isText: false },
  color: { value: 'blue', conditions: ['='], isText: false },
  state: { value: 'true', conditions: ['='], isText: false },
};
const SORT = ['name', 'sku', 'price', 'stock', 'state', 'released_on', 'launched_at', 'views'];
const COLUMNS = ['name', 'sku', 'description', 'email', 'price', 'stock', 'color', 'state', 'released_on'];
const FIELDS = [...new Set([...Object.keys(SEARCH), ...SORT, ...COLUMNS])];
const SEEDS = [11, 2026, 37];
const VIEWS_PER_SEED = 12;
const READERS_PER_SEED = 4;

let t: TestApp;
let admin: string;

/** mulberry32: the same views and readers for the same seed. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  const some = <T>(items: readonly T[], most: number): T[] =>
    [...items].sort(() => next() - 0.5).slice(0, int(most + 1));
  return { next, int, pick, some };
}

interface Pair {
  field: string; // '' for a bare term
  text: string;
}
interface GeneratedView {
  search: Pair[];
  searchFields: Pair[];
  searchJoin?: 'and' | 'or';
  orderBy: string[];
  sortedBy?: 'asc' | 'desc';
  q?: string;
  columns: string[];
}

function generateView(r: ReturnType<typeof rng>): GeneratedView {
  const hasBare = r.next() < 0.3;
  // A bare term is searched in every searchFields field with its condition: text fields then, with `like`.
  const searchable = Object.keys(SEARCH).filter((f) => !hasBare || SEARCH[f]!.isText);
  const named = r.some(searchable, 3);
  const search: Pair[] = named.map((f) => ({ field: f, text: `${f}:${SEARCH[f]!.value}` }));
  if (hasBare) search.splice(r.int(search.length + 1), 0, { field: '', text: 'soft' });
  const chosen = r.some(searchable, 3);
  const searchFields = chosen.map((f) => ({
    field: f,
    text: `${f}:${hasBare ? 'like' : r.pick(SEARCH[f]!.conditions)}`,
  }));
  const orderBy = r.some(SORT, 3);
  const view: GeneratedView = { search, searchFields, orderBy, columns: r.some(COLUMNS, 5) };
  if (r.next() < 0.5) view.searchJoin = r.pick(['and', 'or'] as const);
  if (orderBy.length && r.next() < 0.8) view.sortedBy = r.pick(['asc', 'desc'] as const);
  if (r.next() < 0.3) view.q = 'soft';
  return view;
}

const join = (parts: readonly { text: string }[] | readonly string[]) =>
  parts.length ? parts.map((p) => (typeof p === 'string' ? p : p.text)).join(';') : undefined;
const defined = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function queryOf(view: GeneratedView) {
  return defined({
    search: join(view.search),
    searchFields: join(view.searchFields),
    searchJoin: view.searchJoin,
    orderBy: join(view.orderBy),
    sortedBy: view.sortedBy,
    q: view.q,
  });
}

/** The oracle: the reader's copy keeps the pairs whose fields it sees; a bare term needs all its fields. */
function expectedFor(view: GeneratedView, hidden: ReadonlySet<string>) {
  const sees = (f: string) => !hidden.has(f);
  const bareKept = view.searchFields.every((p) => sees(p.field));
  const orderBy = view.orderBy.filter(sees);
  return {
    query: defined({
      search: join(view.search.filter((p) => (p.field === '' ? bareKept : sees(p.field)))),
      searchFields: join(view.searchFields.filter((p) => sees(p.field))),
      searchJoin: view.searchJoin,
      orderBy: join(orderBy),
      sortedBy: view.orderBy.length && !orderBy.length ? undefined : view.sortedBy,
      q: view.q,
    }),
    columns: view.columns.filter(sees),
  };
}

async function reader(name: string, hidden: readonly string[]): Promise<string> {
  const insert = async (sql: string, params: unknown[]) =>
    (await t.db.query<{ id: string }>(`${sql} RETURNING id::text AS id`, params)).rows[0]!.id;
  const userId = await insert('INSERT INTO users (username, name) VALUES ($1, $1)', [name]);
  const staffId = await insert('INSERT INTO staff (user_id, name) VALUES ($1, $2)', [userId, name]);
  const roleId = await insert('INSERT INTO roles (name, permissions, field_access) VALUES ($1, $2, $3)', [
    `role ${name}`,
    JSON.stringify({ menu_ids: ['test.gadgets'] }),
    JSON.stringify(Object.fromEntries(hidden.map((f) => [`gadgets.${f}`, 'hidden']))),
  ]);
  await t.db.query('INSERT INTO staff_roles (staff_id, role_id) VALUES ($1, $2)', [staffId, roleId]);
  return (await issueToken(t.db, { userId, remember: false })).accessToken;
}

type WireView = { id: string; query: object; columns: string[] };
async function viewsSeenBy(token: string): Promise<Map<string, WireView>> {
  const res = await t.request({ method: 'GET', url: `${VIEWS}?resource=gadgets`, token });
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json().data as WireView[]).map((v) => [v.id, v]));
}

beforeAll(async () => {
  t = await createGadgetApp();
  admin = await t.adminToken();
});
afterAll(() => t?.close());

describe('a shared view as a reader who may not see some fields', () => {
  for (const seed of SEEDS)
    it(`keeps exactly the pairs and columns of the fields the reader sees (seed ${seed})`, async () => {
      const r = rng(seed);
      const made: { id: string; view: GeneratedView }[] = [];
      for (let i = 0; i < VIEWS_PER_SEED; i++) {
        const view = generateView(r);
        const res = await t.request({
          method: 'POST',
          url: VIEWS,
          token: admin,
          payload: {
            resource: 'gadgets',
            name: `seed ${seed} view ${i}`,
            shared: 'everyone',
            query: queryOf(view),
            columns: view.columns,
          },
        });
        expect(res.statusCode, `seed ${seed} view ${i}: ${res.body}`).toBe(201);
        made.push({ id: res.json().data.id as string, view });
      }
      // The owner's own copy is the view as saved.
      const own = await viewsSeenBy(admin);
      for (const { id, view } of made)
        expect(own.get(id), `seed ${seed}`).toMatchObject({ query: queryOf(view), columns: view.columns });

      for (let k = 0; k < READERS_PER_SEED; k++) {
        // Each field hidden with probability 1/2, and at least one.
        const hidden = FIELDS.filter(() => r.next() < 0.5);
        if (hidden.length === 0) hidden.push(r.pick(FIELDS));
        const seen = await viewsSeenBy(await reader(`reader ${seed}-${k}`, hidden));
        for (const { id, view } of made) {
          const got = seen.get(id);
          const why = `seed ${seed}, reader ${k} hiding ${hidden.join(',')}, view ${JSON.stringify(queryOf(view))}`;
          expect(got, why).toBeDefined();
          expect({ query: got!.query, columns: got!.columns }, why).toEqual(
            expectedFor(view, new Set(hidden)),
          );
        }
      }
    });
});
