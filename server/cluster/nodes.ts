import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../db/index.ts';
import type { ClusterNode } from '../../schemas/monitor.ts';

/** Who this server process is, as other nodes and the monitor page see it. */
export interface NodeIdentity {
  id: string;
  host: string;
  pid: number;
  version: string;
  startedAt: Date;
}

/** A node as `GET v1/system/nodes` answers it: the wire type shared with the monitor page. */
export type NodeRow = ClusterNode;

/** Log lines each node keeps published in node_log_lines (its newest warn/error/fatal lines). */
export const PUBLISHED_LINES = 1000;
/** Lines waiting for the next heartbeat at most; a burst beyond it keeps the newest. */
const BUFFERED_LINES = 500;
/** Gone nodes (and their lines) are forgotten after a day. */
const FORGET_AFTER = '1 day';

const VERSION = readVersion();
const identities = new WeakMap<Db, NodeIdentity>();
const sinks = new WeakMap<Db, LogSink>();

/** This process's node on a database (one per server; tests run several in one process, hence per Db). */
export function nodeFor(db: Db): NodeIdentity {
  let node = identities.get(db);
  if (!node) {
    node = {
      id: crypto.randomBytes(5).toString('hex'),
      host: os.hostname(),
      pid: process.pid,
      version: VERSION,
      startedAt: new Date(),
    };
    identities.set(db, node);
  }
  return node;
}

interface LogSink extends Writable {
  /** Takes the lines buffered since the last call. */
  drain(): string[];
}

/**
 * A pino destination (give it level `warn`) that keeps this node's warn/error/fatal lines until the next
 * heartbeat publishes them to node_log_lines, so the system logs page of any node can show them. Lines are
 * already redacted by the logger; the reader scrubs them again. Example:
 * `createLogger({ level, logDir, extraStreams: [{ level: 'warn', stream: logSinkFor(db) }] })`.
 */
export function logSinkFor(db: Db): LogSink {
  let sink = sinks.get(db);
  if (!sink) {
    let lines: string[] = [];
    sink = Object.assign(
      new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(line);
          if (lines.length > BUFFERED_LINES) lines = lines.slice(-BUFFERED_LINES);
          done();
        },
      }),
      {
        drain() {
          const out = lines;
          lines = [];
          return out;
        },
      },
    );
    sinks.set(db, sink);
  }
  return sink;
}

export interface Heartbeat {
  /**
   * Records the first heartbeat, then one every `intervalSeconds`. `withFigures: false`: the first one
   * only records the node: without its monitor figures (null until the next beat), which cost a start-up
   * about half a second of statements on PGlite, and without forgetting the nodes gone for a day, two
   * more statements (issue 37 item 3). The next beat does both.
   */
  start(opts?: { withFigures?: boolean }): Promise<void>;
  /** One heartbeat now (figures, published lines, pruning). */
  beat(): Promise<void>;
  /** Stops the timer and marks this node stopped (gone at once on every monitor page). */
  stop(): Promise<void>;
}

/**
 * The heartbeat of this node: every `intervalSeconds` it upserts its row of cluster_nodes (host, pid,
 * version, started, last seen, its monitor figures), publishes its buffered warn/error lines (keeping the
 * newest PUBLISHED_LINES) and forgets nodes gone for a day. A failed beat is logged and tried again at the
 * next one. Example: `const hb = createHeartbeat({ db, log, intervalSeconds: 10, figures }); await hb.start();`
 */
export function createHeartbeat({
  db,
  log,
  intervalSeconds,
  figures,
}: {
  db: Db;
  log: Logger;
  intervalSeconds: number;
  figures: () => Promise<NodeRow['figures']>;
}): Heartbeat {
  const node = nodeFor(db);
  const sink = logSinkFor(db);
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let failures = 0;
  let stopped = false;

  const beatOnce = async (withFigures = true) => {
    const snapshot = withFigures ? await figures().catch(() => null) : null;
    await db.query(
      `INSERT INTO cluster_nodes (id, host, pid, version, started_at, last_seen, figures)
       VALUES ($1, $2, $3, $4, $5, now(), $6)
       ON CONFLICT (id) DO UPDATE SET last_seen = now(), figures = EXCLUDED.figures, stopped_at = NULL`,
      [node.id, node.host, node.pid, node.version, node.startedAt, JSON.stringify(snapshot)],
    );
    const lines = sink.drain();
    if (lines.length) await publishLines(db, node.id, lines);
    if (!withFigures) return;
    await db.query(`DELETE FROM cluster_nodes WHERE last_seen < now() - $1::interval AND id <> $2`, [
      FORGET_AFTER,
      node.id,
    ]);
    await db.query(
      'DELETE FROM node_log_lines WHERE node_id NOT IN (SELECT id FROM cluster_nodes) AND node_id <> $1',
      [node.id],
    );
  };
  const beat = (withFigures = true): Promise<void> => {
    running ??= beatOnce(withFigures)
      .then(() => {
        failures = 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const heartbeat: Heartbeat = {
    beat: () => beat(),
    async start({ withFigures = true } = {}) {
      await beat(withFigures).catch((err: unknown) => log.warn({ err }, 'node heartbeat failed'));
      // Stopped while that first beat ran (a server closing just as its delayed first heartbeat began).
      if (stopped) return;
      timer = setInterval(() => {
        heartbeat.beat().catch((err: unknown) => {
          // Once per outage, not every beat: the lines would only repeat.
          if (failures++ === 0) log.warn({ err }, 'node heartbeat failed');
        });
      }, intervalSeconds * 1000);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
      await db
        .query('UPDATE cluster_nodes SET stopped_at = now(), last_seen = now() WHERE id = $1', [node.id])
        .catch(() => undefined);
    },
  };
  return heartbeat;
}

async function publishLines(db: Queryable, nodeId: string, lines: string[]): Promise<void> {
  const rows = lines.map((line) => {
    let level = 'warn';
    let time: string | null = null;
    try {
      const record = JSON.parse(line) as { level?: unknown; time?: unknown };
      if (typeof record.level === 'string') level = record.level;
      if (typeof record.time === 'string' && !Number.isNaN(Date.parse(record.time))) time = record.time;
    } catch {
      // Not JSON: kept as a warn line without a time.
    }
    return { level, time, line };
  });
  await db.query(
    `INSERT INTO node_log_lines (node_id, time, level, line)
     SELECT $1, r.time, r.level, r.line
     FROM jsonb_to_recordset($2::jsonb) AS r(time timestamptz, level text, line text)`,
    [nodeId, JSON.stringify(rows)],
  );
  await db.query(
    `DELETE FROM node_log_lines WHERE node_id = $1 AND id <= (
       SELECT id FROM node_log_lines WHERE node_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1)`,
    [nodeId, PUBLISHED_LINES],
  );
}

/**
 * Every known node, live ones first. A node is live while its last heartbeat is younger than three
 * intervals (the database's clock decides, so nodes' clocks need not agree) and it has not stopped.
 */
export async function listNodes(db: Queryable, self: string, intervalSeconds: number): Promise<NodeRow[]> {
  const { rows } = await db.query<{
    id: string;
    host: string;
    pid: number;
    version: string;
    started_at: Date;
    last_seen: Date;
    stopped_at: Date | null;
    figures: NodeRow['figures'];
    live: boolean;
  }>(
    `SELECT id, host, pid, version, started_at, last_seen, stopped_at, figures,
            (stopped_at IS NULL AND last_seen > now() - make_interval(secs => $1)) AS live
     FROM cluster_nodes ORDER BY live DESC, started_at, id`,
    [intervalSeconds * 3],
  );
  return rows.map((r) => ({
    id: r.id,
    host: r.host,
    pid: r.pid,
    version: r.version,
    started_at: new Date(r.started_at).toISOString(),
    last_seen: new Date(r.last_seen).toISOString(),
    stopped_at: r.stopped_at ? new Date(r.stopped_at).toISOString() : null,
    status: r.live ? 'live' : 'gone',
    is_self: r.id === self,
    figures: r.figures,
  }));
}

/** The published lines of a node, newest first (for the system logs page). */
export async function* publishedLines(db: Queryable, nodeId: string): AsyncGenerator<string> {
  let before = '9223372036854775807';
  for (;;) {
    const { rows } = await db.query<{ id: string; line: string }>(
      `SELECT id, line FROM node_log_lines WHERE node_id = $1 AND id < $2 ORDER BY id DESC LIMIT 500`,
      [nodeId, before],
    );
    for (const row of rows) yield row.line;
    if (rows.length < 500) return;
    before = String(rows.at(-1)!.id);
  }
}

function readVersion(): string {
  try {
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
