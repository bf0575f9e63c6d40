import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DROPPED_LINES_MSG,
  createLogger,
  dailyFileStream,
  logFileFor,
  type LogFileStream,
} from './logger.ts';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const write = async (stream: LogFileStream, line: string) => {
  stream.write(line);
  await stream.flush();
};
const linesOf = (dir: string) =>
  fs.readFileSync(logFileFor(dir, new Date()), 'utf8').split('\n').filter(Boolean);
const noSpace = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

describe('the log file destination on a full disk', () => {
  it('drops and counts lines while writes fail, then notes how many before the next line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logger-full-'));
    dirs.push(dir);
    const stream = dailyFileStream(dir);
    await write(stream, '{"msg":"before"}\n');
    const realWrite = fs.write;
    // The disk fills up: half of the next line fits, then nothing does.
    let budget = 11;
    const spy = vi.spyOn(fs, 'write').mockImplementation(((...args: Parameters<typeof fs.write>) => {
      const [fd, buffer, offset, length, position, callback] = args as unknown as [
        number,
        Buffer,
        number,
        number,
        null,
        (err: Error | null, n: number) => void,
      ];
      if (budget <= 0) return process.nextTick(() => callback(noSpace(), 0));
      const n = Math.min(budget, length);
      budget -= n;
      return realWrite(fd, buffer, offset, n, position, callback);
    }) as typeof fs.write);
    for (const msg of ['cut', 'lost-1', 'lost-2']) await write(stream, `{"msg":"${msg}"}\n`);
    // Space returns.
    spy.mockRestore();
    await write(stream, '{"msg":"after"}\n');
    const lines = linesOf(dir);
    expect(lines[0]).toBe('{"msg":"before"}');
    expect(lines[1]).toBe('{"msg":"cut'); // the line the disk cut short, ended so the next stays whole
    expect(JSON.parse(lines[2]!)).toMatchObject({
      level: 'warn',
      msg: DROPPED_LINES_MSG,
      dropped: 3,
      reason: 'ENOSPC',
    });
    expect(lines.slice(3)).toEqual(['{"msg":"after"}']);
    // Once noted, the count starts again from zero.
    await write(stream, '{"msg":"later"}\n');
    expect(linesOf(dir).slice(3)).toEqual(['{"msg":"after"}', '{"msg":"later"}']);
    await stream.end();
  });

  it('keeps going when the day file cannot even be opened', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logger-full-'));
    dirs.push(dir);
    const stream = dailyFileStream(dir);
    const spy = vi.spyOn(fs, 'openSync').mockImplementation(() => {
      throw noSpace();
    });
    await write(stream, '{"msg":"lost"}\n');
    spy.mockRestore();
    await write(stream, '{"msg":"after"}\n');
    const lines = linesOf(dir);
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: DROPPED_LINES_MSG, dropped: 1, reason: 'ENOSPC' });
    expect(lines.slice(1)).toEqual(['{"msg":"after"}']);
    await stream.end();
  });
});

describe('the log file destination', () => {
  it('gathers the lines queued together into one write', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logger-gather-'));
    dirs.push(dir);
    const stream = dailyFileStream(dir);
    const writes = vi.spyOn(fs, 'write');
    for (let i = 0; i < 100; i++) stream.write(`{"msg":"line ${i}"}\n`);
    await stream.flush();
    expect(writes).toHaveBeenCalledTimes(1);
    expect(linesOf(dir)).toEqual(Array.from({ length: 100 }, (_, i) => `{"msg":"line ${i}"}`));
    // A line written alone reaches the file without a flush, within the gathering delay.
    stream.write('{"msg":"alone"}\n');
    await expect.poll(() => linesOf(dir).at(-1)).toBe('{"msg":"alone"}');
    await stream.end();
  });
});

describe('errors in log lines', () => {
  it('keep type, message and code, never the stack, under err and error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logger-err-'));
    dirs.push(dir);
    const lines: string[] = [];
    const log = createLogger({
      level: 'info',
      stdout: false,
      extraStreams: [{ level: 'info', stream: { write: (line: string) => void lines.push(line) } }],
    });
    const failure = Object.assign(new Error('connection terminated unexpectedly'), { code: '57P01' });
    log.warn({ err: failure }, 'node heartbeat failed');
    log.error({ error: new TypeError('bad') }, 'task sync failed');
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, Record<string, unknown>>);
    expect(first?.err).toEqual({
      type: 'Error',
      message: 'connection terminated unexpectedly',
      code: '57P01',
    });
    expect(second?.error).toEqual({ type: 'TypeError', message: 'bad' });
    expect(lines.join('')).not.toMatch(/\bat .*\.ts:\d+|node_modules/);
  });
});
