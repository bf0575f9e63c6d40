import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';

/** Paths whose values never reach a log line, whatever module logs them. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-xsrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.password_confirmation',
  '*.old_password',
  '*.token',
  '*.access_token',
  '*.captcha',
  '*.secret',
  'password',
  'token',
  'access_token',
  'captcha',
];

/** Log file of a given day: DATA_DIR/logs/app-YYYY-MM-DD.log (the system log page reads these). */
export function logFileFor(logDir: string, date: Date): string {
  return path.join(logDir, `app-${date.toISOString().slice(0, 10)}.log`);
}

/**
 * A pino logger writing JSON lines to stdout and, when `logDir` is given, to one file per UTC day.
 * Example: `createLogger({ level: 'info', logDir: '/srv/data/logs' })`.
 */
export function createLogger({
  level,
  logDir,
  stdout = true,
  extraStreams = [],
}: {
  level: string;
  logDir?: string | null;
  stdout?: boolean;
  /** More destinations, e.g. this node's published warn/error lines (server/cluster/nodes.ts). */
  extraStreams?: pino.StreamEntry[];
}): pino.Logger {
  const streams: pino.StreamEntry[] = [...extraStreams];
  if (stdout) streams.push({ level: level as pino.Level, stream: process.stdout });
  if (logDir) streams.push({ level: level as pino.Level, stream: dailyFileStream(logDir) });
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(streams),
  );
}

function dailyFileStream(logDir: string): Writable {
  fs.mkdirSync(logDir, { recursive: true });
  let day = '';
  let fd = -1;
  return new Writable({
    write(chunk: Buffer, _enc, callback) {
      const today = new Date().toISOString().slice(0, 10);
      if (today !== day) {
        if (fd >= 0) fs.closeSync(fd);
        fd = fs.openSync(logFileFor(logDir, new Date()), 'a');
        day = today;
      }
      fs.write(fd, chunk, (err) => callback(err));
    },
    final(callback) {
      if (fd >= 0) fs.close(fd, () => callback());
      else callback();
    },
  });
}
