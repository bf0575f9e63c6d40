/** Shared by the server (server/modules/system-tools/monitor.ts) and the monitor page. */

/** One reading of the host, the process, the database and the queues (`GET v1/system/monitor`). */
export interface MonitorSnapshot {
  at: string;
  host: {
    hostname: string;
    platform: string;
    cpus: number;
    /** Share of CPU time busy since the previous reading, 0..1 (all cores). */
    cpu_usage: number;
    load: [number, number, number];
    memory: { total: number; free: number; used: number };
    uptime_s: number;
  };
  disk: { path: string; total: number; free: number; used: number } | null;
  process: {
    node_version: string;
    pid: number;
    uptime_s: number;
    rss: number;
    heap_used: number;
    heap_total: number;
    /** 99th percentile event-loop delay since the previous reading, in milliseconds. */
    event_loop_p99_ms: number;
  };
  database: { kind: string; version: string | null; size: number | null; connections: number | null };
  /** Jobs per queue and state; null while the job queues are unavailable. */
  queues: Record<string, Record<string, number>> | null;
}

/** One server sharing the database, as `GET v1/system/nodes` answers it (server/cluster/nodes.ts). */
export interface ClusterNode {
  id: string;
  host: string;
  pid: number;
  version: string;
  started_at: string;
  last_seen: string;
  stopped_at: string | null;
  /** `live` while its heartbeat arrives; `gone` when it stopped or went silent for 3 heartbeats. */
  status: 'live' | 'gone';
  /** The server answering this request. */
  is_self: boolean;
  figures: Pick<MonitorSnapshot, 'at' | 'host' | 'disk' | 'process'> | null;
}
