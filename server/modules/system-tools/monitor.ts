import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { MonitorSnapshot } from '../../../schemas/monitor.ts';
import type { Db } from '../../db/index.ts';
import { queueCounts } from './queue-counts.ts';

export type { MonitorSnapshot };

export interface Monitor {
  snapshot(): Promise<MonitorSnapshot>;
  stop(): void;
}

/**
 * Collects monitor figures. CPU use and event-loop delay are measured between two readings, so the first
 * reading covers the time since the monitor was created. Example:
 * `const monitor = createMonitor({ db, dataDir }); const figures = await monitor.snapshot();`
 */
export function createMonitor({ db, dataDir }: { db: Db; dataDir: string }): Monitor {
  let histogram: IntervalHistogram | null = monitorEventLoopDelay({ resolution: 20 });
  histogram.enable();
  let lastCpu = cpuTimes();
  return {
    async snapshot() {
      const cpu = cpuTimes();
      const busy = cpu.busy - lastCpu.busy;
      const total = cpu.total - lastCpu.total;
      lastCpu = cpu;
      const p99 = histogram ? histogram.percentile(99) / 1e6 : 0;
      histogram?.reset();
      const memory = process.memoryUsage();
      const [load1 = 0, load5 = 0, load15 = 0] = os.loadavg();
      return {
        at: new Date().toISOString(),
        host: {
          hostname: os.hostname(),
          platform: `${os.type()} ${os.release()}`,
          cpus: os.cpus().length,
          cpu_usage: total > 0 ? round(busy / total, 4) : 0,
          load: [round(load1, 2), round(load5, 2), round(load15, 2)],
          memory: { total: os.totalmem(), free: os.freemem(), used: os.totalmem() - os.freemem() },
          uptime_s: Math.round(os.uptime()),
        },
        disk: diskOf(dataDir),
        process: {
          node_version: process.version,
          pid: process.pid,
          uptime_s: Math.round(process.uptime()),
          rss: memory.rss,
          heap_used: memory.heapUsed,
          heap_total: memory.heapTotal,
          event_loop_p99_ms: Number.isFinite(p99) ? round(p99, 2) : 0,
        },
        database: await databaseFigures(db),
        queues: await queueCounts(db).catch(() => null),
      };
    },
    stop() {
      histogram?.disable();
      histogram = null;
    },
  };
}

function cpuTimes(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const cpu of os.cpus()) {
    const { user, nice, sys, irq, idle } = cpu.times;
    busy += user + nice + sys + irq;
    total += user + nice + sys + irq + idle;
  }
  return { busy, total };
}

/** Space of the file system holding DATA_DIR (the nearest existing ancestor before it is created). */
function diskOf(dataDir: string): MonitorSnapshot['disk'] {
  let dir = path.resolve(dataDir);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  try {
    const stats = fs.statfsSync(dir);
    const total = stats.blocks * stats.bsize;
    const free = stats.bavail * stats.bsize;
    return { path: dataDir, total, free, used: total - free };
  } catch {
    return null;
  }
}

async function databaseFigures(db: Db): Promise<MonitorSnapshot['database']> {
  const one = async <T>(sql: string): Promise<T | null> => {
    try {
      const { rows } = await db.query<{ v: T }>(sql);
      return rows[0]?.v ?? null;
    } catch {
      return null;
    }
  };
  const [version, size, connections] = await Promise.all([
    one<string>("SELECT current_setting('server_version') AS v"),
    one<string>('SELECT pg_database_size(current_database())::text AS v'),
    one<string>('SELECT count(*)::text AS v FROM pg_stat_activity WHERE datname = current_database()'),
  ]);
  return {
    kind: db.kind,
    version: version ? version.split(' ')[0]! : null,
    size: size === null ? null : Number(size),
    connections: connections === null ? null : Number(connections),
  };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
