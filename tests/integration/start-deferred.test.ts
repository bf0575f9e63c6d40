import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { createHeartbeat, nodeFor } from '../../server/cluster/nodes.ts';
import { createLogger } from '../../server/core/logger.ts';
import { openDatabase } from '../../server/db/index.ts';
import { openPglite } from '../../server/db/pglite.ts';
import { migrate } from '../../server/db/migrate.ts';
import { anchorsListening } from '../../server/engine/list/anchors.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { createScratchDatabase } from '../helpers/pgDatabase.ts';
import { serverTestEnv } from '../helpers/serverProcess.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * What a starting server leaves until just after it listens (issue 37 item 3: each statement before the
 * listen delays the first answer, 10-25 ms apiece on a freshly opened PGlite): its heartbeat (its row in
 * cluster_nodes with its monitor figures, and forgetting the nodes gone for a day with their published
 * lines) and listening for table changes (the anchors of deep pages). Each must still happen about a
 * second later. On PostgreSQL (`npm run test:pg`, a scratch database) the server records itself before it
 * listens, for the other servers to see before it takes a job; no other server shares a PGlite database.
 */
describe('work a start leaves until after it listens', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-start-deferred-'));
  let server: RunningServer | null = null;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | null = null;
  afterAll(async () => {
    await server?.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens first, then records itself with its figures, forgets day-old nodes and watches table changes', async () => {
    scratch = onPostgres ? await createScratchDatabase() : null;
    const config = loadConfig({
      DATABASE_URL: scratch?.url ?? '',
      ...serverTestEnv(dataDir, 0, 'silent'),
      ADMIN_PASSWORD: 'start-deferred-password-1',
    });
    const db = await openDatabase(config);
    await migrate(db);
    // A node that stopped beating two days ago, with a published line.
    await db.query(
      `INSERT INTO cluster_nodes (id, host, pid, version, started_at, last_seen)
       VALUES ('0ld0000001', 'old-host', 4242, '0.1.0', now() - interval '3 days', now() - interval '2 days')`,
    );
    await db.query(
      `INSERT INTO node_log_lines (node_id, time, level, line) VALUES ('0ld0000001', now(), 'warn', 'old line')`,
    );
    server = await startServer(config, undefined, Promise.resolve(db));
    const nodes = async () =>
      (
        await db.query<{ id: string; has_figures: boolean }>(
          'SELECT id, figures IS NOT NULL AND figures <> $1 AS has_figures FROM cluster_nodes ORDER BY id',
          ['null'],
        )
      ).rows;
    const self = nodeFor(db).id;
    // Listening: nothing of it has run yet but, on PostgreSQL, the server's own row.
    const old = { id: '0ld0000001', has_figures: false };
    expect(await nodes()).toEqual(
      onPostgres ? [old, { id: self, has_figures: false }].sort((a, b) => a.id.localeCompare(b.id)) : [old],
    );
    expect(anchorsListening(db)).toBe(false);
    expect((await fetch(`${server.address}/api/health`)).status).toBe(200);
    // About a second later, all of it has happened.
    await expect
      .poll(async () => ({ nodes: await nodes(), anchors: anchorsListening(db) }), {
        timeout: 10_000,
        interval: 100,
      })
      .toEqual({ nodes: [{ id: self, has_figures: true }], anchors: true });
    const lines = await db.query('SELECT 1 FROM node_log_lines WHERE node_id = $1', ['0ld0000001']);
    expect(lines.rows).toEqual([]);
  }, 60_000);

  it('a heartbeat stopped during its first beat (a server closing as it begins) beats no more', async () => {
    const db = await openPglite(null);
    try {
      await migrate(db);
      let measured = 0;
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const heartbeat = createHeartbeat({
        db,
        log: createLogger({ level: 'silent', stdout: false }),
        intervalSeconds: 1,
        figures: async () => {
          measured += 1;
          await gate;
          return null;
        },
      });
      const starting = heartbeat.start();
      await expect.poll(() => measured).toBe(1);
      const stopping = heartbeat.stop();
      release();
      await Promise.all([starting, stopping]);
      const row = await db.query<{ stopped: boolean }>(
        'SELECT stopped_at IS NOT NULL AS stopped FROM cluster_nodes WHERE id = $1',
        [nodeFor(db).id],
      );
      expect(row.rows).toEqual([{ stopped: true }]);
      // Two intervals later: no beat has come (each measures the figures first).
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(measured).toBe(1);
    } finally {
      await db.close();
    }
  }, 30_000);
});
