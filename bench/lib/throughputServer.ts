/**
 * One server of `bench/throughput.ts`, in a process of its own: `node --import tsx bench/lib/throughputServer.ts
 * <product|bare>` listening on 127.0.0.1:$PORT over $DATABASE_URL.
 * - `product`: the whole app (buildApp from $APP_ROOT, by default this checkout) as `npm start` runs it, minus
 *   the job runner and the front end: its default logger at $LOG_LEVEL (info), to stdout and DATA_DIR/logs.
 * - `bare`: a plain Fastify with no plugin and a pg pool, answering the same first page as the product with
 *   the statements the engine sends for it (the page, the planner's row estimate), in the same JSON
 *   envelope, and a plain `/api/health`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';
import { users } from '../../resources/users.ts';
import { selectColumns } from '../../server/engine/list/records.ts';
import type * as AppFile from '../../server/app.ts';
import type * as ConfigFile from '../../server/config.ts';
import type * as PostgresFile from '../../server/db/postgres.ts';

const mode = process.argv[2];
const port = Number(process.env.PORT);
const url = process.env.DATABASE_URL!;
export const PAGE_SIZE = 15;

if (mode === 'bare') {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const app = Fastify();
  const cols = selectColumns(users);
  app.get('/api/health', async () => ({ code: 200, data: { status: 'ok' } }));
  // The statements the engine sends for an unfiltered first page of a table past ESTIMATE_FLOOR rows: the
  // page with one row more (to learn whether more follow), then the planner's estimate (totals.ts).
  app.get('/bench/users', async () => {
    const { rows: read } = await pool.query(
      `SELECT ${cols} FROM users ORDER BY id DESC LIMIT ${PAGE_SIZE + 1}`,
    );
    const { rows: count } = await pool.query<{ n: string }>(
      `SELECT (CASE WHEN c.reltuples < 0 THEN -1
                    WHEN c.relpages = 0 THEN c.reltuples
                    ELSE c.reltuples / c.relpages
                         * (pg_relation_size(c.oid) / current_setting('block_size')::int) END)::bigint AS n
         FROM pg_class c WHERE c.oid = to_regclass($1)`,
      ['"users"'],
    );
    const rows = read.slice(0, PAGE_SIZE);
    const total = Number(count[0]!.n);
    return {
      code: 200,
      data: {
        data: rows,
        meta: {
          pagination: {
            total,
            count: rows.length,
            per_page: PAGE_SIZE,
            current_page: 1,
            total_pages: Math.ceil(total / PAGE_SIZE),
          },
        },
      },
    };
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.once(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => pool.end())
        .then(() => process.exit(0)),
  );
} else if (mode === 'product') {
  const root = path.resolve(process.env.APP_ROOT ?? path.join(import.meta.dirname, '..', '..'));
  const load = <T>(file: string) => import(pathToFileURL(path.join(root, file)).href) as Promise<T>;
  const { buildApp } = await load<typeof AppFile>('server/app.ts');
  const { loadConfig } = await load<typeof ConfigFile>('server/config.ts');
  const { openPostgres } = await load<typeof PostgresFile>('server/db/postgres.ts');
  const config = { ...loadConfig(process.env), jobs: false, distDir: '/nonexistent' };
  const db = await openPostgres(url);
  const app = await buildApp({ db, config });
  await app.listen({ port, host: '127.0.0.1' });
  // A clean exit, so that `--cpu-prof` (THROUGHPUT_CPU_PROF) writes its profile.
  process.once(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => db.close())
        .then(() => process.exit(0)),
  );
} else {
  throw new Error(`unknown mode ${mode}`);
}
