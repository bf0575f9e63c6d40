import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { openPostgres, replacePlaceholders } from '../../server/db/postgres.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

describe('replacePlaceholders', () => {
  it('replaces $n outside quoted literals and identifiers only', () => {
    const sql = `SELECT $1, '$2 it''s $3', "$4", $10 FROM t WHERE a = $2`;
    expect(replacePlaceholders(sql, (n) => `<${n}>`)).toBe(
      `SELECT <1>, '$2 it''s $3', "$4", <10> FROM t WHERE a = <2>`,
    );
  });
});

/**
 * `Db.copyOut`, the COPY stream CSV exports use on PostgreSQL. PGlite has no streaming COPY (exports read
 * a cursor there), so this file runs under `npm run test:pg` only.
 */
describe.skipIf(!process.env.DATABASE_URL)('copyOut (PostgreSQL)', () => {
  let t: TestDb;
  let small: Db;

  beforeAll(async () => {
    t = await createTestDb({ migrated: false });
    small = await openPostgres(t.url!, { max: 2 });
  });
  afterAll(async () => {
    await small.close();
    await t.drop();
  });

  // Decoded once at the end: a chunk may end inside a character (é is two bytes), which a decode per chunk
  // would turn into two replacement characters.
  const read = async (stream: AsyncIterable<Buffer>) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  };

  it('binds parameters of every type and applies the settings, with no value in the SQL text', async () => {
    const stream = await t.db.copyOut!(
      `SELECT g, $1::text || 'x', g = ANY ($2), $3 AND true, now()::date = $4 FROM generate_series(1, 3) g WHERE g >= $5`,
      [`it's "$1", a`, [2, 3], true, new Date().toISOString().slice(0, 10), 2],
      { DateStyle: 'ISO, YMD' },
    );
    expect(await read(stream)).toBe(`2,"it's ""$1"", ax",t,t,t\n3,"it's ""$1"", ax",t,t,t\n`);
    expect(stream.rowCount).toBe(2);
  });

  it('rejects a bad statement before any byte is streamed', async () => {
    await expect(t.db.copyOut!('SELECT nope FROM generate_series(1, 2) g WHERE g = $1', [1])).rejects.toThrow(
      /nope/,
    );
    const { rows } = await t.db.query<{ n: number }>('SELECT 1 AS n');
    expect(rows[0]!.n).toBe(1);
  });

  it('streams every row byte for byte, rows longer than a socket read among many short ones', async () => {
    const n = 20000;
    const stream = await small.copyOut!(
      `SELECT g, repeat(chr(65 + g % 26), CASE WHEN g % 5000 = 0 THEN 300000 ELSE g % 40 END), 'é"' || g
         FROM generate_series(1, $1::int) g`,
      [n],
    );
    let expected = '';
    for (let g = 1; g <= n; g++) {
      const text = String.fromCharCode(65 + (g % 26)).repeat(g % 5000 === 0 ? 300000 : g % 40);
      expected += `${g},${text === '' ? '""' : text},"é""${g}"\n`;
    }
    const text = await read(stream);
    expect(text.length).toBe(expected.length);
    expect(text === expected).toBe(true);
    expect(stream.rowCount).toBe(n);
  });

  it('an error part way through the rows fails the stream and leaves the pool usable', async () => {
    for (let i = 0; i < 3; i++) {
      const stream = await small.copyOut!(
        `SELECT g, repeat('x', 100), 1 / (g - 150000) FROM generate_series(1, 200000) g`,
        [],
      );
      let bytes = 0;
      const failure = await (async () => {
        for await (const chunk of stream as AsyncIterable<Buffer>) bytes += chunk.length;
      })().then(
        () => null,
        (error: Error) => error,
      );
      expect(failure?.message).toMatch(/division by zero/);
      expect(bytes).toBeGreaterThan(0);
    }
    const results = await Promise.all(
      [1, 2, 3].map((n) => small.query<{ n: number }>('SELECT $1::int AS n', [n])),
    );
    expect(results.map((r) => r.rows[0]!.n)).toEqual([1, 2, 3]);
  });

  it('a stream destroyed part way gives its connection back (no pool leak)', async () => {
    for (let i = 0; i < 5; i++) {
      const stream = await small.copyOut!(
        `SELECT g, repeat('x', 100) FROM generate_series(1, 1000000) g`,
        [],
      );
      await new Promise<void>((resolve) => stream.once('data', () => resolve()));
      stream.destroy();
    }
    // The pool holds two connections: a leaked one would make these wait forever.
    const results = await Promise.all(
      [1, 2, 3].map((n) => small.query<{ n: number }>('SELECT $1::int AS n', [n])),
    );
    expect(results.map((r) => r.rows[0]!.n)).toEqual([1, 2, 3]);
  });
});
