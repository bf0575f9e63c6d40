import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createScratchDatabase } from '../helpers/pgDatabase.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';
import '../setup/db-template.ts';

/**
 * Issue 37 item 2: the request log is written through asynchronous destinations, and none of its lines is
 * lost when the server stops. A real server process (server/main.ts, logging at its default level to stdout
 * and DATA_DIR/logs) gets SIGTERM while 20 connections keep asking; every request that got an answer (200,
 * or the drain's 503) has its one line in the log file once the process has exited.
 */
const CONNECTIONS = 20;
/**
 * A request's one line: ours, or Fastify's own for a request that reached it after the drain handed over to
 * `app.close()` (its `return503OnClosing` answers 503 and logs this line instead, with the request's id).
 */
const REQUEST_LINES = new Set([
  'request completed',
  'request aborted - refusing to accept new requests as server is closing',
]);
/** Answers received before the signal is sent. */
const BEFORE_SIGNAL = 400;

describe('the request log at shutdown', () => {
  const dataDir = path.join(os.tmpdir(), `admin-log-flush-${crypto.randomBytes(6).toString('hex')}`);
  let drop: (() => Promise<void>) | null = null;
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    fs.mkdirSync(dataDir);
    const env: Record<string, string> = { DATA_DIR: dataDir, JOBS: '0', LOG_TO_FILE: '1', LOG_LEVEL: 'info' };
    if (process.env.DATABASE_URL) {
      const scratch = await createScratchDatabase();
      drop = scratch.drop;
      env.DATABASE_URL = scratch.url;
    } else {
      const root = inject('pgliteTemplateRoot');
      if (root) fs.cpSync(path.join(root, 'template'), path.join(dataDir, 'db'), { recursive: true });
    }
    server = await startServerProcess(env);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('has every answered request in the log file after SIGTERM under load', async () => {
    const { baseURL } = server!;
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    const answered = new Map<string, number>();
    let signalled = false;
    let sent = 0;
    const get = (id: string, url: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${baseURL}${url}`, { agent, headers: { 'x-request-id': id } }, (res) => {
            res.resume();
            res.once('end', () => resolve(res.statusCode ?? 0));
          })
          .once('error', reject);
      });
    // Each connection asks until the server refuses (the drain's 503) or the connection is gone.
    const worker = async (w: number) => {
      for (;;) {
        const id = `log-flush-${w}-${sent++}`;
        const status = await get(id, sent % 2 ? '/api/health' : '/api/v1').catch(() => 0);
        if (status === 0) return;
        answered.set(id, status);
        if (!signalled && answered.size >= BEFORE_SIGNAL) {
          signalled = true;
          server!.kill('SIGTERM');
        }
        if (status === 503) return;
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, (_, w) => worker(w)));
    agent.destroy();
    expect(signalled).toBe(true);
    expect(await server!.exited()).toEqual({ code: 0, signal: null });

    const logDir = path.join(dataDir, 'logs');
    const lines = fs
      .readdirSync(logDir)
      .flatMap((file) => fs.readFileSync(path.join(logDir, file), 'utf8').split('\n'))
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as { msg?: string; reqId?: string; res?: { statusCode?: number } });
    const logged = new Map<string, number>();
    for (const line of lines) {
      if (!REQUEST_LINES.has(line.msg ?? '') || !line.reqId?.startsWith('log-flush-')) continue;
      expect(logged.has(line.reqId), `two lines for ${line.reqId}`).toBe(false);
      logged.set(line.reqId, line.res?.statusCode ?? 0);
    }
    const missing = [...answered.keys()].filter((id) => !logged.has(id));
    expect(
      missing.map((id) => `${id} (${answered.get(id)})`),
      `${missing.length} of ${answered.size} answered requests have no log line`,
    ).toEqual([]);
    for (const [id, status] of answered) expect(logged.get(id), id).toBe(status);
    // The last line of the file is whole JSON (parsed above) and the shutdown's own line is there too.
    expect(lines.some((line) => line.msg === 'shutting down: draining in-flight requests')).toBe(true);
  }, 120_000);
});
