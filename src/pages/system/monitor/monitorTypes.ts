/** `GET v1/system/monitor` and the `monitor` live event (server/modules/system-tools/monitor.ts). */
export interface MonitorSnapshot {
  at: string;
  host: {
    hostname: string;
    platform: string;
    cpus: number;
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
    event_loop_p99_ms: number;
  };
  database: { kind: string; version: string | null; size: number | null; connections: number | null };
  queues: Record<string, Record<string, number>> | null;
}

/** Readings kept for the charts: 5 minutes at one every 2 s. */
export const HISTORY_SIZE = 150;

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${d ? `${d}d ` : ''}${h}h ${m}m`;
}
