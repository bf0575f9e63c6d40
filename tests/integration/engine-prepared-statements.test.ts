import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../resources/users.ts';
import type { Db } from '../../server/db/index.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { readPage } from '../../server/engine/list/paging.ts';
import { statementName } from '../../server/engine/list/prepared.ts';
import { parseListQuery } from '../../server/engine/list/query.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

/**
 * Named prepared statements for the list statements no value can re-plan (engine/list/prepared.ts): on
 * PostgreSQL (`npm run test:pg`) an unfiltered first page and the planner's estimate are prepared once on a
 * connection and run again by name, with the rows of the unnamed statements, also after the table changed
 * shape; a filter, an OFFSET or a cursor prepares nothing. On PGlite (`npm test`) the names are ignored and
 * the pages are the same.
 */
let t: TestDb;
let one: Db;

beforeAll(async () => {
  t = await createTestDb();
  await t.db.exec(`INSERT INTO users (username, name, email, state)
    SELECT 'prep' || g, 'Name ' || g, 'prep' || g || '@example.com', g % 2 = 0 FROM generate_series(1, 40) g`);
  // One connection, so what it prepared is what pg_prepared_statements shows.
  one = t.url ? await openPostgres(t.url, { max: 1 }) : t.db;
}, 180_000);
afterAll(async () => {
  if (one !== t.db) await one.close();
  await t.drop();
});

async function ids(query: Record<string, string>) {
  const page = await readPage(one, users, parseListQuery(users, query));
  return { ids: page.rows.map((r) => String(r.id)), next: page.nextCursor, total: page.total };
}

async function named(): Promise<string[]> {
  if (!t.url) return [];
  const { rows } = await one.query<{ name: string }>(
    `SELECT name FROM pg_prepared_statements WHERE name LIKE 'engine\\_%' ORDER BY name`,
  );
  return rows.map((r) => r.name);
}

async function expected(sql: string): Promise<string[]> {
  const { rows } = await t.db.query<{ id: string }>(sql);
  return rows.map((r) => String(r.id));
}

describe('prepared list statements', () => {
  it('a name is the text: the same text the same name, another text another', () => {
    expect(statementName('SELECT 1')).toBe(statementName('SELECT 1'));
    expect(statementName('SELECT 1')).not.toBe(statementName('SELECT 2'));
  });

  it('runs an unfiltered first page by name, with the same rows each time, and names nothing else', async () => {
    const newest = await expected(`SELECT id FROM users ORDER BY id DESC LIMIT 5`);
    const first = await ids({ size: '5' });
    expect(first.ids).toEqual(newest);
    expect(await ids({ size: '5' })).toEqual(first);
    const prepared = await named();
    if (t.url) expect(prepared).toHaveLength(2); // the page's read and the planner's estimate
    expect(first.total).toBeGreaterThanOrEqual(40);

    const byName = await ids({ size: '5', orderBy: 'username', sortedBy: 'asc' });
    expect(byName.ids).toEqual(
      await expected(`SELECT id FROM users ORDER BY username COLLATE "C", id LIMIT 5`),
    );
    const afterSort = await named();
    if (t.url) expect(afterSort).toHaveLength(3);

    const filtered = await ids({ size: '5', search: 'state:1', searchFields: 'state:=' });
    expect(filtered.ids).toEqual(await expected(`SELECT id FROM users WHERE state ORDER BY id DESC LIMIT 5`));
    const second = await ids({ size: '5', page: '2' });
    expect(second.ids).toEqual(await expected(`SELECT id FROM users ORDER BY id DESC LIMIT 5 OFFSET 5`));
    const next = await ids({ size: '5', cursor: first.next! });
    expect(next.ids).toEqual(second.ids);
    expect(await named()).toEqual(afterSort);
  });

  it('answers by name after the table changed shape', async () => {
    const before = await ids({ size: '5' });
    await one.exec('ALTER TABLE users ADD COLUMN prep_extra int');
    try {
      expect(await ids({ size: '5' })).toEqual(before);
    } finally {
      await one.exec('ALTER TABLE users DROP COLUMN prep_extra');
    }
    expect(await ids({ size: '5' })).toEqual(before);
  });

  it('answers after a column the page reads changed type (a statement prepared before cannot run)', async () => {
    const before = await ids({ size: '5' });
    await one.exec('ALTER TABLE users ALTER COLUMN name TYPE varchar(200)');
    try {
      expect(await ids({ size: '5' })).toEqual(before);
      expect(await ids({ size: '5' })).toEqual(before);
    } finally {
      await one.exec('ALTER TABLE users ALTER COLUMN name TYPE text');
    }
    expect(await ids({ size: '5' })).toEqual(before);
  });
});
