import type { MonitorSnapshot } from '../../../../schemas/monitor.ts';

export type { MonitorSnapshot };

/** Readings kept for the charts: 5 minutes at one every 2 s. */
export const HISTORY_SIZE = 150;

export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return `${d ? `${d}d ` : ''}${h}h ${m}m`;
}
