import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from './types.ts';
import { PGLITE_SHARED_BUFFERS, openPglite } from './pglite.ts';

describe('openPglite', () => {
  let db: Db;
  // Opening runs initdb in WebAssembly: seconds on a busy machine, so it belongs to the hook's timeout.
  beforeAll(async () => {
    db = await openPglite(null);
  });
  afterAll(() => db.close());

  it('starts PostgreSQL with the smaller buffer pool (a cold start zeroes all of it)', async () => {
    const { rows } = await db.query<{ shared_buffers: string }>('SHOW shared_buffers');
    expect(rows[0]?.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
    // PGlite's own start parameters still apply.
    const { rows: path } = await db.query<{ search_path: string }>('SHOW search_path');
    expect(path[0]?.search_path).toBe('public');
  });
});
