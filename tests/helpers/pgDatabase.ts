import crypto from 'node:crypto';
import pg from 'pg';

/**
 * An empty database (not migrated) in the PostgreSQL cluster of DATABASE_URL, for tests that start whole
 * servers against it; `drop()` removes it (closing what is still connected). PostgreSQL only.
 * Example: `const scratch = await createScratchDatabase(); ...; await scratch.drop();`
 */
export async function createScratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('createScratchDatabase needs DATABASE_URL (npm run test:pg)');
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
