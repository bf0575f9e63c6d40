import fs from 'node:fs';
import path from 'node:path';
import type { LogEntry } from '../../../schemas/logs.ts';
import type { Paged } from '../../../schemas/pagination.ts';
import { paged } from '../../core/paged.ts';

export type { LogEntry };

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogQuery {
  /** Lowest level shown (`warn` shows warn, error and fatal). */
  level?: LogLevel;
  from?: Date;
  to?: Date;
  /** Case-insensitive text anywhere in the line. */
  text?: string;
  page: number;
  size: number;
}

/** A page of log lines; `total_is_capped` past LOG_COUNT_CAP, `total_is_estimate` past MAX_SCAN_LINES. */
export type LogPage = Paged<LogEntry>;

/** Lines read for one request at most; past it the total is an estimate. */
const MAX_SCAN_LINES = 200_000;
/**
 * Matching lines counted past the requested page at most. Counting every line of a busy day meant reading
 * and parsing the whole file before the first page could answer (seconds for a few hundred thousand lines,
 * while the page sat at "0-0 of 0"); past the cap the total says `total_is_capped` (the contract's "cap+").
 */
export const LOG_COUNT_CAP = 1_000;
const CHUNK = 64 * 1024;
const FILE_NAME = /^app-(\d{4}-\d{2}-\d{2})\.log$/;

/**
 * Reads the pino files under `logDir` newest first (files by date, lines from the end), filtered by level,
 * time range and text, one page at a time. Secrets are redacted when written; `scrubLine` also hides
 * anything token-like that slipped through. Example: `await readLogs(dir, { level: 'warn', page: 1, size: 50 })`.
 */
export async function readLogs(logDir: string, query: LogQuery): Promise<LogPage> {
  async function* lines(): AsyncGenerator<[string, string]> {
    for (const file of logFiles(logDir, query.from, query.to)) {
      for await (const line of linesFromEnd(path.join(logDir, file))) yield [line, file];
    }
  }
  return pageOfLines(lines(), query);
}

/**
 * One page of `lines` ([raw line, file label] pairs, newest first) filtered by the query: the files of this
 * node (readLogs) or the lines another node published to the database (`file` is then `node:<id>`). The
 * total counts at most LOG_COUNT_CAP matching lines past the page (then `total_is_capped`).
 */
export async function pageOfLines(lines: AsyncIterable<[string, string]>, query: LogQuery): Promise<LogPage> {
  const skip = (query.page - 1) * query.size;
  const data: LogEntry[] = [];
  let total = 0;
  let scanned = 0;
  let isEstimate = false;
  const minLevel = query.level ? LOG_LEVELS.indexOf(query.level) : 0;
  const text = query.text?.toLowerCase();
  const cap = skip + query.size + LOG_COUNT_CAP;
  let isCapped = false;
  for await (const [line, file] of lines) {
    if (total >= cap) {
      isCapped = true;
      break;
    }
    if (++scanned > MAX_SCAN_LINES) {
      isEstimate = true;
      break;
    }
    const entry = toEntry(line, file);
    if (!entry || !matches(entry, line, { minLevel, text, from: query.from, to: query.to })) continue;
    if (total >= skip && data.length < query.size) data.push(entry);
    total += 1;
  }
  return paged(data, { total, page: query.page, size: query.size, isEstimate, isCapped });
}

/** Log files newest first, limited to the days the time range touches. */
export function logFiles(logDir: string, from?: Date, to?: Date): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(logDir);
  } catch {
    return [];
  }
  const fromDay = from?.toISOString().slice(0, 10);
  const toDay = to?.toISOString().slice(0, 10);
  return names
    .filter((name) => {
      const day = FILE_NAME.exec(name)?.[1];
      if (!day) return false;
      return (!fromDay || day >= fromDay) && (!toDay || day <= toDay);
    })
    .sort()
    .reverse();
}

/** A secret-named query parameter's value; `code[]=`, `token[0]=` and `code%5B%5D=` included. */
const SECRET_QUERY_VALUE =
  /([?&][\w-]*(?:token|code|secret|key|ticket|signature)[\w-]*(?:\[[^\]&=\s"]*\]|%5B[^&=\s"]*?%5D)*=)[^&\s"]+/gi;

/**
 * Hides what looks like a secret in a raw log line: values of secret-named keys, Bearer credentials,
 * token query parameters and long opaque strings (tokens, hashes, keys).
 */
export function scrubLine(line: string): string {
  return line
    .replace(
      /("[\w-]*(?:password|passwd|secret|token|captcha|authorization|cookie|api[_-]?key)[\w-]*"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
      '$1"[redacted]"',
    )
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, '$1 [redacted]')
    .replace(SECRET_QUERY_VALUE, '$1[redacted]')
    .replace(/[A-Za-z0-9_-]{32,}/g, (match) => (looksLikeSecret(match) ? '[redacted]' : match));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A long run of letters and digits (a token, hash or key), but not a request id (UUID) or a plain word. */
function looksLikeSecret(value: string): boolean {
  return /\d/.test(value) && /[a-z]/i.test(value) && !UUID.test(value);
}

/** Parses one JSON log line (scrubbed); null for anything that is not a pino record. */
export function toEntry(line: string, file: string): LogEntry | null {
  if (!line.startsWith('{')) return null;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(scrubLine(line)) as Record<string, unknown>;
  } catch {
    return null;
  }
  const level = typeof record.level === 'string' ? record.level : levelName(record.level);
  return {
    time: typeof record.time === 'string' ? record.time : null,
    level,
    msg: typeof record.msg === 'string' ? record.msg : '',
    file,
    record,
  };
}

function matches(
  entry: LogEntry,
  line: string,
  filter: { minLevel: number; text?: string; from?: Date; to?: Date },
): boolean {
  if (filter.minLevel > 0 && LOG_LEVELS.indexOf(entry.level as LogLevel) < filter.minLevel) return false;
  if (filter.from || filter.to) {
    const at = entry.time ? Date.parse(entry.time) : Number.NaN;
    if (Number.isNaN(at)) return false;
    if (filter.from && at < filter.from.getTime()) return false;
    if (filter.to && at > filter.to.getTime()) return false;
  }
  return !filter.text || scrubLine(line).toLowerCase().includes(filter.text);
}

function levelName(value: unknown): string {
  const byNumber: Record<number, LogLevel> = {
    10: 'trace',
    20: 'debug',
    30: 'info',
    40: 'warn',
    50: 'error',
    60: 'fatal',
  };
  return typeof value === 'number' ? (byNumber[value] ?? String(value)) : 'info';
}

/** The lines of a file from the last to the first, read in chunks from the end. */
async function* linesFromEnd(file: string): AsyncGenerator<string> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return;
  }
  try {
    let position = (await handle.stat()).size;
    let rest = Buffer.alloc(0);
    while (position > 0) {
      const length = Math.min(CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      let buffer = Buffer.concat([chunk, rest]);
      let end = buffer.length;
      for (let i = buffer.length - 1; i >= 0; i -= 1) {
        if (buffer[i] !== 0x0a) continue;
        const line = buffer
          .subarray(i + 1, end)
          .toString('utf8')
          .trim();
        if (line) yield line;
        end = i;
      }
      rest = Buffer.from(buffer.subarray(0, end));
      buffer = Buffer.alloc(0);
    }
    const first = rest.toString('utf8').trim();
    if (first) yield first;
  } finally {
    await handle.close();
  }
}
