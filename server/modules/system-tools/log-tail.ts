import fs from 'node:fs';
import path from 'node:path';
import { logFileFor } from '../../core/logger.ts';
import { toEntry, type LogEntry } from './logs.ts';

const POLL_MS = 1_000;
/** Lines sent per poll at most; a burst beyond it is skipped (the page can still read the files). */
const MAX_LINES_PER_POLL = 200;
const MAX_BYTES_PER_POLL = 512 * 1024;

/**
 * Follows today's log file from its current end and hands each new line (parsed and scrubbed) to `onEntry`;
 * moves to the next file when the day changes. Returns the stop function. Example:
 * `const stop = tailLogs(dir, (entry) => hub.publishLocal({ type: 'log', data: entry, permission }))`
 */
export function tailLogs(logDir: string, onEntry: (entry: LogEntry) => void): () => void {
  let file = logFileFor(logDir, new Date());
  let offset = sizeOf(file);
  let isReading = false;
  const poll = async () => {
    if (isReading) return;
    isReading = true;
    try {
      const today = logFileFor(logDir, new Date());
      if (today !== file) {
        file = today;
        offset = 0;
      }
      const size = sizeOf(file);
      if (size < offset) offset = 0;
      if (size === offset) return;
      const length = Math.min(size - offset, MAX_BYTES_PER_POLL);
      const buffer = Buffer.alloc(length);
      const handle = await fs.promises.open(file, 'r');
      try {
        await handle.read(buffer, 0, length, offset);
      } finally {
        await handle.close();
      }
      const lastNewline = buffer.lastIndexOf(0x0a);
      if (lastNewline < 0) {
        if (length === MAX_BYTES_PER_POLL) offset += length;
        return;
      }
      offset += lastNewline + 1;
      const lines = buffer.subarray(0, lastNewline).toString('utf8').split('\n').filter(Boolean);
      for (const line of lines.slice(-MAX_LINES_PER_POLL)) {
        const entry = toEntry(line, path.basename(file));
        if (entry) onEntry(entry);
      }
    } catch {
      // The file may be rotated or not written yet; try again on the next poll.
    } finally {
      isReading = false;
    }
  };
  const timer = setInterval(() => void poll(), POLL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
