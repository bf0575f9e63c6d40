import fs from 'node:fs';
import os from 'node:os';
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

/**
 * Query parameters whose values never reach a log line (links with live invitations, OAuth codes and states,
 * tickets, tokens). Modules add their own with `AppModule.sensitiveQuery`.
 */
export const SENSITIVE_QUERY_PARAMS = [
  'invitation',
  'code',
  'ticket',
  'state',
  'token',
  'access_token',
  'refresh_token',
  'captcha',
  'password',
  'secret',
  'signature',
] as const;

/**
 * The URL with the values of the given query parameters (case-insensitive, with or without bracket suffixes:
 * `code[]`, `code[0]`) replaced by `[redacted]`.
 * Example: `redactUrl('/register?invitation=abc&x=1', new Set(['invitation']))` -> `/register?invitation=[redacted]&x=1`.
 */
export function redactUrl(url: string, names: ReadonlySet<string>): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const pairs = query.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    if (eq < 0) return pair;
    let key: string;
    try {
      key = decodeURIComponent(pair.slice(0, eq).replace(/\+/g, ' '));
    } catch {
      key = pair.slice(0, eq);
    }
    return names.has(bareKey(key)) ? `${pair.slice(0, eq)}=[redacted]` : pair;
  });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

/**
 * A parameter's name as the redaction lists know it: lower case, without the `[]`, `[0]` or `[name]`
 * suffixes that array and object notations add (`code[]`, `token[0]`, `password[new]`).
 */
export function bareKey(key: string): string {
  return key.replace(/(?:\[[^\]]*\])+$/, '').toLowerCase();
}

/**
 * A logger whose request lines carry the URL with sensitive query values redacted (`redactUrl`), whatever
 * logger it is given: Fastify takes a child's serializers over its own, so the `req` of "incoming request"
 * is written redacted, not only hidden when the logs page reads it.
 */
export function withRedactedRequests(log: pino.Logger, extraParams: readonly string[] = []): pino.Logger {
  const names = new Set([...SENSITIVE_QUERY_PARAMS, ...extraParams].map((n) => n.toLowerCase()));
  return log.child(
    {},
    {
      serializers: {
        req: (req: {
          method?: string;
          url?: string;
          host?: string;
          ip?: string;
          socket?: { remotePort?: number };
        }) => ({
          method: req.method,
          url: typeof req.url === 'string' ? redactUrl(req.url, names) : req.url,
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
      },
    },
  );
}

/**
 * An error as a log line holds it: its type, message and code, never its stack (pino's own serializer
 * writes the stack, and a pg or pg-boss error's stack names our files and the driver's internals). Every
 * logger from createLogger uses it for `err` and `error`, background loops included.
 */
export function errorWithoutStack(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const code = (value as { code?: unknown }).code;
  return {
    type: value.name || value.constructor.name,
    message: value.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
  };
}

/** The `msg` of the line the log file gets when it can be written again after lines were dropped. */
export const DROPPED_LINES_MSG = 'log lines dropped: the log file could not be written';

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
  // Asynchronous: a line is queued and written by the event loop, not with a blocking write per line (pino
  // flushes what is queued when the process exits).
  if (stdout)
    streams.push({ level: level as pino.Level, stream: pino.destination({ dest: 1, sync: false }) });
  if (logDir) streams.push({ level: level as pino.Level, stream: dailyFileStream(logDir) });
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: errorWithoutStack, error: errorWithoutStack },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    pino.multistream(streams),
  );
}

/**
 * The log file destination: appends each line to the day's file (`logFileFor`). A write the file system
 * refuses (a full disk: ENOSPC, EDQUOT, or any other error) never fails the stream, which would end the
 * process: the line is dropped and counted (stdout still has it), and the first write that succeeds again is
 * preceded by one warn line naming how many were dropped and why (`msg` `DROPPED_LINES_MSG`, `dropped`,
 * `reason`). A line the disk cut short is ended by a newline before the next one, so every other line stays
 * whole JSON. Example: `pino(dailyFileStream('/srv/data/logs'))`.
 */
export function dailyFileStream(logDir: string): Writable {
  fs.mkdirSync(logDir, { recursive: true });
  let day = '';
  let fd = -1;
  let dropped = 0;
  let reason = '';
  /** The last write stopped inside a line (the disk filled up in the middle of it). */
  let isLineOpen = false;

  const openToday = () => {
    const today = new Date().toISOString().slice(0, 10);
    if (today === day && fd >= 0) return;
    const next = fs.openSync(logFileFor(logDir, new Date()), 'a');
    if (fd >= 0) fs.close(fd, () => undefined);
    fd = next;
    day = today;
    isLineOpen = false;
  };
  const writeAll = async (data: Buffer) => {
    let at = 0;
    while (at < data.length) {
      const written = await new Promise<number>((resolve, reject) =>
        fs.write(fd, data, at, data.length - at, null, (err, n) => (err ? reject(err) : resolve(n))),
      );
      if (written > 0 && at + written < data.length) isLineOpen = true;
      at += written;
      if (written === 0) throw Object.assign(new Error('no bytes written'), { code: 'ENOSPC' });
    }
    isLineOpen = false;
  };
  const append = async (chunk: Buffer) => {
    openToday();
    if (dropped > 0 || isLineOpen) {
      const note = JSON.stringify({
        level: 'warn',
        time: new Date().toISOString(),
        pid: process.pid,
        hostname: os.hostname(),
        dropped,
        reason,
        msg: DROPPED_LINES_MSG,
      });
      await writeAll(Buffer.from(`${isLineOpen ? '\n' : ''}${note}\n`));
      dropped = 0;
    }
    await writeAll(chunk);
  };
  const appendLines = (lines: Buffer[], callback: () => void) => {
    append(lines.length === 1 ? lines[0]! : Buffer.concat(lines)).then(
      () => callback(),
      (error: unknown) => {
        dropped += lines.length;
        reason = (error as NodeJS.ErrnoException | null)?.code ?? 'error';
        callback();
      },
    );
  };
  return new Writable({
    write(chunk: Buffer, _enc, callback) {
      appendLines([chunk], callback);
    },
    // The lines that came in while a write was under way go to the file in one write.
    writev(chunks, callback) {
      appendLines(
        chunks.map(({ chunk }) => chunk as Buffer),
        callback,
      );
    },
    final(callback) {
      if (fd >= 0) fs.close(fd, () => callback());
      else callback();
    },
  });
}
