/**
 * The cold-start baseline of `bench/startup.ts` (issue 37 item 3): `node bench/lib/bareStartup.mjs` opens
 * the PGlite directory DATA_DIR/db the way the product does (pg_trgm loaded, the same shared_buffers; plain
 * JavaScript, no transpiler) and serves `/api/health` with a Fastify that has no plugin, on HOST:PORT. The
 * product's start is measured against this script's time to its first 200.
 *
 * `--hold-loop`: the same script holding a timer until it listens, as scripts/start.ts does. Without one,
 * node finds its event loop empty while PGlite's WebAssembly compiles, blocks until V8's background tasks are
 * done, and the first request waits 40-160 ms after the listen; bench/startup.ts prints both baselines.
 */
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import Fastify from 'fastify';

const hold = process.argv.includes('--hold-loop') ? setInterval(() => undefined, 60_000) : null;
const db = await PGlite.create(path.join(process.env.DATA_DIR ?? 'data', 'db'), {
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
});
const app = Fastify();
app.get('/api/health', async () => {
  await db.query('SELECT 1');
  return { code: 200, data: { status: 'ok' } };
});
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
if (hold) clearInterval(hold);
process.once(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => db.close())
      .then(() => process.exit(0)),
);
