import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION } from '../../schemas/permissions.ts';
import { buildApp } from '../../server/app.ts';
import { logSinkFor, nodeFor, type NodeRow } from '../../server/cluster/nodes.ts';
import { createLogger } from '../../server/core/logger.ts';
import type { Db } from '../../server/db/index.ts';
import { openPostgres } from '../../server/db/postgres.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/users.ts';
import { eventually } from '../helpers/eventually.ts';

interface LogsMeta {
  node: { id: string; host: string; pid: number; is_self: boolean; source: string };
  nodes: { id: string; status: string; is_self: boolean }[];
}

let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ heartbeatSeconds: 1 });
  admin = await t.adminToken();
});
afterAll(() => t.close());

const nodesOf = async (token = admin) => {
  const res = await t.request({ url: '/api/v1/system/nodes', token });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: NodeRow[] }).data;
};

describe('every node visible', () => {
  it('this server records a heartbeat with its figures; the list needs system.system.monitor', async () => {
    const other = await createUser(t.db, { staff: { permissions: [PERMISSION.systemLogs] } });
    expect((await t.request({ url: '/api/v1/system/nodes' })).statusCode).toBe(401);
    expect((await t.request({ url: '/api/v1/system/nodes', token: other.token })).statusCode).toBe(403);
    const nodes = await nodesOf();
    const self = nodes.find((n) => n.is_self)!;
    expect(self).toMatchObject({
      id: nodeFor(t.db).id,
      pid: process.pid,
      status: 'live',
      stopped_at: null,
      version: expect.any(String),
    });
    expect(self.figures!.process.pid).toBe(process.pid);
    expect(self.figures!.host.cpus).toBeGreaterThan(0);
  });

  it('marks a node gone when its heartbeat stops', async () => {
    // A node that crashed an hour ago: its row stays, its heartbeat no longer comes.
    await t.db.query(
      `INSERT INTO cluster_nodes (id, host, pid, version, started_at, last_seen)
       VALUES ('dead00beef', 'crashed-host', 4242, '0.1.0', now() - interval '2 hours', now() - interval '1 hour')`,
    );
    const nodes = await nodesOf();
    expect(nodes.find((n) => n.id === 'dead00beef')).toMatchObject({ status: 'gone', host: 'crashed-host' });
    expect(nodes[0]!.status).toBe('live');
  });

  it('the logs page says whose lines it shows; an unknown node is a 404, a malformed id a 422', async () => {
    const res = await t.request({ url: '/api/v1/system/logs', token: admin });
    expect(res.statusCode).toBe(200);
    const meta = (res.json() as { data: { meta: LogsMeta } }).data.meta;
    expect(meta.node).toMatchObject({ id: nodeFor(t.db).id, is_self: true, source: 'files' });
    expect(meta.nodes.map((n) => n.id)).toContain(nodeFor(t.db).id);
    const unknown = await t.request({ url: '/api/v1/system/logs?node=0123456789', token: admin });
    expect(unknown.statusCode).toBe(404);
    const bad = await t.request({ url: '/api/v1/system/logs?node=x;drop', token: admin });
    expect(bad.statusCode).toBe(422);
  });
});

/**
 * Two servers on one PostgreSQL: each sees the other in the node list, reads the other's published
 * warn/error lines, and sees it gone once it stops. PGlite is one process's embedded database, so there
 * is no second server to see: this part runs under `npm run test:pg` only.
 */
describe.skipIf(!process.env.DATABASE_URL)('two nodes on one PostgreSQL', () => {
  let secondDb: Db;
  let second: FastifyInstance;
  beforeAll(async () => {
    secondDb = await openPostgres(t.dbUrl!, { max: 3 });
    const logger = createLogger({
      level: 'warn',
      stdout: false,
      extraStreams: [{ level: 'warn', stream: logSinkFor(secondDb) }],
    });
    second = await buildApp({ db: secondDb, config: t.config, logger });
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.close();
  });

  it('lists both live, shows the other node’s warn lines, and marks it gone when it stops', async () => {
    const otherId = nodeFor(secondDb).id;
    let nodes = await nodesOf();
    expect(nodes.filter((n) => n.status === 'live').map((n) => n.id)).toEqual(
      expect.arrayContaining([nodeFor(t.db).id, otherId]),
    );
    second.log.warn({ order: 'B-1' }, 'disk nearly full on node B');
    second.log.info('an info line stays in its own files');
    // The line goes out with node B's next heartbeat (every second here).
    const { data: lines, meta } = await eventually(
      async () => {
        const res = await t.request({ url: `/api/v1/system/logs?node=${otherId}`, token: admin });
        expect(res.statusCode).toBe(200);
        const body = (res.json() as { data: { data: { msg: string; file: string }[]; meta: LogsMeta } }).data;
        expect(body.data.map((l) => l.msg)).toContain('disk nearly full on node B');
        return body;
      },
      { what: "node B's warn line in its logs" },
    );
    expect(lines.map((l) => l.msg)).toEqual(['disk nearly full on node B']);
    expect(lines[0]!.file).toBe(`node:${otherId}`);
    expect(meta.node).toMatchObject({ id: otherId, is_self: false, source: 'published' });
    expect(meta.nodes.map((n) => n.id)).toEqual(expect.arrayContaining([nodeFor(t.db).id, otherId]));

    await second.close();
    nodes = await nodesOf();
    expect(nodes.find((n) => n.id === otherId)).toMatchObject({
      status: 'gone',
      stopped_at: expect.any(String),
    });
  });
});
