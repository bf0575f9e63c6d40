/**
 * A byte count for people, in binary units: `formatBytes(10485760)` -> "10 MB", `formatBytes(1536)` ->
 * "1.5 KB", `formatBytes(null)` -> "—". Whole numbers keep no decimals, others one. Shared by the server
 * (the upload limit in its 413 message) and the client (file sizes, the monitor's memory and disk).
 */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${UNITS[unit]}`;
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];
