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
