import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/** How long a log line may wait for others to go to the file (or stdout) in the same write. */
export const LOG_GATHER_MS = 50;
/** Queued bytes that are written at once, without waiting for LOG_GATHER_MS. */
const GATHER_BYTES = 64 * 1024;

/**
 * A pino logger writing JSON lines to stdout and, when `logDir` is given, to one file per UTC day.
 * Both destinations are asynchronous and gather lines: a line waits at most LOG_GATHER_MS for the lines
 * after it, so a busy server writes a batch per write instead of one line per system call; whatever is still
 * queued is written when the process exits (`process.on('exit')`, synchronously) and `flushLogFiles()`
 * waits for the files (graceful shutdown).
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
  // pino's SonicBoom: lines are appended to a buffer written when it holds 8 KB, or every LOG_GATHER_MS;
  // pino writes the rest synchronously when the process exits.
  if (stdout)
    streams.push({
      level: level as pino.Level,
      stream: pino.destination({
        dest: 1,
        sync: false,
        minLength: 8 * 1024,
        periodicFlush: LOG_GATHER_MS,
      }),
    });
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

/** The log file destination (`dailyFileStream`). */
export interface LogFileStream {
  /** Queues a line (pino calls it); it reaches the file with the lines around it, within LOG_GATHER_MS. */
  write(line: string | Buffer): boolean;
  /** Resolves once every line queued so far is in the file (or dropped and counted). */
  flush(): Promise<void>;
  /** Writes what is queued now, blocking (the process is exiting). */
  flushSync(): void;
  /** Flushes, then closes the file. */
  end(): Promise<void>;
  /** From now on each line is written at once, synchronously (the process is about to exit). */
  syncFromNowOn(): void;
}

/** The log files open in this process, written out when it exits. */
const openLogFiles = new Set<LogFileStream>();
let exitHookInstalled = false;

/**
 * Waits until every line queued for a log file is written, then has each write the lines that still come
 * synchronously (graceful shutdown, before `process.exit`: no write may be under way when the process ends).
 */
export async function flushLogFiles(): Promise<void> {
  await Promise.all([...openLogFiles].map((f) => f.flush()));
  for (const file of openLogFiles) file.syncFromNowOn();
}

/**
 * The log file destination: appends lines to the day's file (`logFileFor`), gathered (at most
 * LOG_GATHER_MS, or GATHER_BYTES) into one write. A write the file system refuses (a full disk: ENOSPC,
 * EDQUOT, or any other error) never fails the stream, which would end the process: its lines are dropped and
 * counted (stdout still has them), and the first write that succeeds again is preceded by one warn line
 * naming how many were dropped and why (`msg` `DROPPED_LINES_MSG`, `dropped`, `reason`). A line the disk cut
 * short is ended by a newline before the next one, so every other line stays whole JSON. Lines still queued
 * when the process exits are written synchronously then. Example: `pino(dailyFileStream('/srv/data/logs'))`.
 */
export function dailyFileStream(logDir: string): LogFileStream {
  fs.mkdirSync(logDir, { recursive: true });
  let day = '';
  let fd = -1;
  let dropped = 0;
  let reason = '';
  /** The last write stopped inside a line (the disk filled up in the middle of it). */
  let isLineOpen = false;
  let queued: string[] = [];
  let queuedBytes = 0;
  let writing: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let isSync = false;

  const openToday = () => {
    const today = new Date().toISOString().slice(0, 10);
    if (today === day && fd >= 0) return;
    const next = fs.openSync(logFileFor(logDir, new Date()), 'a');
    if (fd >= 0) fs.close(fd, () => undefined);
    fd = next;
    day = today;
    isLineOpen = false;
  };
  /** The note on dropped lines (and the newline ending a cut line) that goes before the next lines. */
  const preamble = () => {
    if (dropped === 0 && !isLineOpen) return '';
    const note = JSON.stringify({
      level: 'warn',
      time: new Date().toISOString(),
      pid: process.pid,
      hostname: os.hostname(),
      dropped,
      reason,
      msg: DROPPED_LINES_MSG,
    });
    return `${isLineOpen ? '\n' : ''}${note}\n`;
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
  const take = () => {
    const lines = queued;
    queued = [];
    queuedBytes = 0;
    return lines;
  };
  const failed = (lines: number, error: unknown) => {
    dropped += lines;
    reason = (error as NodeJS.ErrnoException | null)?.code ?? 'error';
  };
  const startWrite = () => {
    const lines = take();
    writing = (async () => {
      try {
        openToday();
        const note = preamble();
        if (note) {
          await writeAll(Buffer.from(note));
          dropped = 0;
        }
        await writeAll(Buffer.from(lines.join('')));
      } catch (error) {
        failed(lines.length, error);
      }
    })().finally(() => {
      writing = null;
      schedule();
    });
  };
  const schedule = () => {
    if (writing || queued.length === 0) return;
    if (isSync) return stream.flushSync();
    if (queuedBytes >= GATHER_BYTES) {
      if (timer) clearTimeout(timer);
      timer = null;
      startWrite();
    } else if (!timer) {
      timer = setTimeout(() => {
        timer = null;
        if (!writing && queued.length) startWrite();
      }, LOG_GATHER_MS);
      timer.unref();
    }
  };
  const stream: LogFileStream = {
    write(line) {
      const text = typeof line === 'string' ? line : line.toString('utf8');
      queued.push(text);
      queuedBytes += text.length;
      schedule();
      return true;
    },
    async flush() {
      if (timer) clearTimeout(timer);
      timer = null;
      while (writing || queued.length) {
        if (writing) await writing;
        else startWrite();
      }
    },
    flushSync() {
      if (timer) clearTimeout(timer);
      timer = null;
      if (queued.length === 0) return;
      // A write still under way has handed its bytes to the system already; these go after them.
      const lines = take();
      try {
        openToday();
        const data = Buffer.from(preamble() + lines.join(''));
        let at = 0;
        while (at < data.length) {
          const n = fs.writeSync(fd, data, at, data.length - at);
          if (n === 0) throw Object.assign(new Error('no bytes written'), { code: 'ENOSPC' });
          at += n;
        }
      } catch (error) {
        failed(lines.length, error);
      }
    },
    syncFromNowOn() {
      isSync = true;
      if (!writing) stream.flushSync();
    },
    async end() {
      await stream.flush();
      openLogFiles.delete(stream);
      if (fd >= 0) await new Promise<void>((resolve) => fs.close(fd, () => resolve()));
      fd = -1;
    },
  };
  openLogFiles.add(stream);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const file of openLogFiles) file.flushSync();
    });
  }
  return stream;
}
