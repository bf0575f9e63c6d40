import path from 'node:path';
import * as z from 'zod';
import { resources } from '../../../resources/index.ts';
import { logEntrySchema } from '../../../schemas/logs.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { wireTime } from '../../../schemas/wire.ts';
import { createHeartbeat, listNodes, nodeFor, publishedLines } from '../../cluster/nodes.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { pagedOf, permission, route } from '../../core/route.ts';
import { hubFor } from '../../events/hub.ts';
import { producersFor } from '../../events/producers.ts';
import type { AppModule } from '../../core/app-module.ts';
import { soonAfterListen } from '../../core/after-listen.ts';
import { moduleCatalogue } from './catalogue.ts';
import { registerDashboardRoutes } from './dashboard.ts';
import { LOG_LEVELS, pageOfLines, readLogs, type LogQuery } from './logs.ts';
import { tailLogs } from './log-tail.ts';
import { registerModuleGate } from './module-gate.ts';
import { registerModuleRoutes } from './modules-routes.ts';
import { createMonitor } from './monitor.ts';

export { isMenuHidden } from './module-gate.ts';

/** Monitor figures go to watching streams this often. */
export const MONITOR_INTERVAL_MS = 2_000;

const logQuerySchema = z.object({
  level: z.enum(LOG_LEVELS).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  text: z.string().max(200).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(200).default(50),
  /** Another node's published lines (cluster_nodes id); this node's files by default. */
  node: z
    .string()
    .regex(/^[0-9a-f]{10}$/)
    .optional()
    .describe("another node's id (its published warn/error lines)"),
});

const looseObject = z.record(z.string(), z.unknown());
/** `GET v1/system/monitor` (schemas/monitor.ts `MonitorSnapshot`; the parts documented as open objects). */
const monitorSchema = z.object({
  at: wireTime,
  host: looseObject,
  disk: looseObject.nullable().optional(),
  process: looseObject,
  database: looseObject,
  queues: looseObject.nullable().optional(),
});
/** `GET v1/system/nodes` (schemas/monitor.ts `ClusterNode`). */
const nodeSchema = z.object({
  id: z.string(),
  host: z.string(),
  pid: z.number().int(),
  version: z.string(),
  started_at: wireTime,
  last_seen: wireTime,
  stopped_at: wireTime.nullable().optional(),
  status: z.enum(['live', 'gone']),
  is_self: z.boolean(),
  figures: looseObject.nullable().optional(),
});
/** What a page of log lines adds to its meta: whose lines these are, and the nodes one may pick. */
const logMeta = {
  node: z.object({
    id: z.string(),
    host: z.string(),
    pid: z.number().int(),
    is_self: z.boolean(),
    source: z.enum(['files', 'published']),
  }),
  nodes: z.array(
    z.object({
      id: z.string(),
      host: z.string(),
      pid: z.number().int(),
      is_self: z.boolean(),
      status: z.enum(['live', 'gone']),
    }),
  ),
};

/**
 * System tools: the dashboard figures, the monitor (`GET v1/system/monitor`, live every 2 s over
 * `GET v1/events`), the system logs (`GET v1/system/logs`, live tail over events) and the modules
 * (`v1/system/modules`, with the gate that hides a disabled module's menus and API).
 */
export const systemToolsModule: AppModule = {
  name: 'system-tools',
  register(app, { db, config, log, startsAfterListen }) {
    const catalogue = moduleCatalogue(resources);
    const logDir = path.join(config.dataDir, 'logs');
    const monitor = createMonitor({ db, dataDir: config.dataDir });
    const self = nodeFor(db);
    const heartbeat = createHeartbeat({
      db,
      log,
      intervalSeconds: config.heartbeatSeconds,
      figures: async () => {
        const { at, host, disk, process } = await monitor.snapshot();
        return { at, host, disk, process };
      },
    });
    // A server that listens measures its figures (database size, connections, queues: about half a second
    // of statements on PGlite) and forgets the nodes gone for a day shortly after it listens, not before its
    // first answer (issue 37 item 3: cold start). On PostgreSQL it records itself before it listens: the
    // other servers must see it before it takes a job (jobs/orphans.ts). No other server shares a PGlite
    // database, so there its whole first heartbeat waits too.
    const recordFirst = !startsAfterListen || db.kind !== 'pglite';
    if (recordFirst) app.addHook('onReady', () => heartbeat.start({ withFigures: !startsAfterListen }));
    const settle = startsAfterListen
      ? soonAfterListen(app, () =>
          // start() logs its own failure and beats on regardless.
          !recordFirst
            ? heartbeat.start()
            : heartbeat.beat().catch((err: unknown) => log.warn({ err }, 'node heartbeat failed')),
        )
      : async () => {};
    app.addHook('onClose', async () => {
      await settle();
      return heartbeat.stop();
    });
    const hub = hubFor(db);
    const producers = producersFor(db);

    registerModuleGate(app, db, catalogue);
    registerModuleRoutes(app, db, catalogue);
    registerDashboardRoutes(app, db);

    producers.add({
      name: 'monitor',
      permission: PERMISSION.systemMonitor,
      start() {
        const timer = setInterval(() => {
          void monitor
            .snapshot()
            .then((data) => hub.publishLocal({ type: 'monitor', data, permission: PERMISSION.systemMonitor }))
            .catch(() => undefined);
        }, MONITOR_INTERVAL_MS);
        timer.unref();
        return () => clearInterval(timer);
      },
    });
    producers.add({
      name: 'log-tail',
      permission: PERMISSION.systemLogs,
      start: () =>
        tailLogs(logDir, (entry) =>
          hub.publishLocal({ type: 'log', data: entry, permission: PERMISSION.systemLogs }),
        ),
    });
    app.addHook('onClose', () => monitor.stop());

    route(app, {
      method: 'GET',
      url: '/api/v1/system/monitor',
      tags: ['system'],
      summary: 'Host, process, database and queue figures (a snapshot)',
      access: permission(PERMISSION.systemMonitor),
      responses: { 200: monitorSchema },
      handler: async () => ok(await monitor.snapshot()),
    });

    route(app, {
      method: 'GET',
      url: '/api/v1/system/nodes',
      tags: ['system'],
      summary: 'The servers sharing this database: live ones with their figures, and those gone',
      access: permission(PERMISSION.systemMonitor),
      responses: { 200: z.array(nodeSchema) },
      handler: async () => ok(await listNodes(db, self.id, config.heartbeatSeconds)),
    });

    route(app, {
      method: 'GET',
      url: '/api/v1/system/logs',
      tags: ['system'],
      summary: 'Application log lines, newest first (level = lowest level shown, from/to ISO times, text)',
      // `node` names no server sharing this database.
      errors: [404],
      access: permission(PERMISSION.systemLogs),
      query: logQuerySchema,
      responses: { 200: pagedOf(logEntrySchema, logMeta) },
      handler: async ({ query: q }) => {
        const query: LogQuery = {
          level: q.level,
          from: q.from ? new Date(q.from) : undefined,
          to: q.to ? new Date(q.to) : undefined,
          text: q.text?.trim() || undefined,
          page: q.page,
          size: q.size,
        };
        const nodes = await listNodes(db, self.id, config.heartbeatSeconds);
        const nodeId = q.node ?? self.id;
        const node = nodes.find((n) => n.id === nodeId);
        if (!node && nodeId !== self.id) throw AppError.notFound();
        const isSelf = nodeId === self.id;
        const page = isSelf
          ? await readLogs(logDir, query)
          : await pageOfLines(withFile(publishedLines(db, nodeId), `node:${nodeId}`), query);
        return ok({
          ...page,
          meta: {
            ...page.meta,
            // Which node's lines these are: this node's own files, or what another node published.
            node: {
              id: nodeId,
              host: node?.host ?? self.host,
              pid: node?.pid ?? self.pid,
              is_self: isSelf,
              source: isSelf ? 'files' : 'published',
            },
            nodes: nodes
              .filter((n) => n.status === 'live' || n.id === nodeId)
              .map((n) => ({ id: n.id, host: n.host, pid: n.pid, is_self: n.is_self, status: n.status })),
          },
        });
      },
    });
  },
};

async function* withFile(lines: AsyncIterable<string>, file: string): AsyncGenerator<[string, string]> {
  for await (const line of lines) yield [line, file];
}
