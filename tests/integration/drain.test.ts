import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { translate } from '../../locales/index.ts';
import { createScratchDatabase } from '../helpers/pgDatabase.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';
import { openSse } from '../helpers/sse.ts';
import '../setup/db-template.ts';

/**
 * SIGTERM drains (issue 28 item 5), on a real server process: uploads whose bodies are still arriving when
 * the signal comes complete (201) and read back byte for byte after a restart on the same data, a request
 * that comes after the signal gets a 503 in the envelope with Retry-After in the client's language, an idle
 * keep-alive connection does not hold the process, an open event stream is ended (not reset), and the
 * process exits 0. PGlite in DATA_DIR, or a scratch database under `npm run test:pg`.
 */
const PASSWORD = 'drain-password-1';
const BOUNDARY = '----drain-test';
const UPLOADS = 3;
const CHUNK = 64 * 1024;
const CHUNKS = 16;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface SlowUpload {
  content: Buffer;
  /** Sends the next piece of the body; false once all of it is sent (and the request ended). */
  sendMore(): boolean;
  response: Promise<{ status: number; body: string }>;
}

/** A multipart upload whose body is written piece by piece, when the test says so, on its own connection. */
function slowUpload(baseURL: string, token: string, seed: number): SlowUpload {
  const content = Buffer.concat([PNG, crypto.randomBytes(CHUNK * CHUNKS - PNG.length)]);
  content[8] = seed;
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow-${seed}.png"\r\n` +
      `Content-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const pieces = [Buffer.concat([head, content.subarray(0, CHUNK)])];
  for (let i = 1; i < CHUNKS; i += 1) pieces.push(content.subarray(i * CHUNK, (i + 1) * CHUNK));
  pieces.push(tail);
  const length = pieces.reduce((n, p) => n + p.length, 0);
  const request = http.request(`${baseURL}/api/v1/resources/assets`, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(length),
    },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.once('error', reject);
    request.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.once('error', reject);
    });
  });
  // Awaited below; a failure before then must not also surface as an unhandled rejection.
  response.catch(() => undefined);
  let next = 0;
  return {
    content,
    sendMore() {
      if (next >= pieces.length) return false;
      request.write(pieces[next]);
      next += 1;
      if (next === pieces.length) request.end();
      return next < pieces.length;
    },
    response,
  };
}

async function signIn(baseURL: string): Promise<string> {
  const login = await fetch(`${baseURL}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: PASSWORD, remember: false }),
  });
  expect(login.status).toBe(200);
  return ((await login.json()) as { data: { access_token: string } }).data.access_token;
}

/** One GET on a connection of its own (a new client, not a kept-alive socket). */
function freshGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.get(url, { agent: false, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (text: string) => (body += text));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.once('error', reject);
    },
  );
}

describe('SIGTERM drains in-flight requests', () => {
  const dataDir = path.join(os.tmpdir(), `admin-drain-${crypto.randomBytes(6).toString('hex')}`);
  let env: Record<string, string>;
  let drop: (() => Promise<void>) | null = null;
  let server: ServerProcess | null = null;
  let restarted: ServerProcess | null = null;

  beforeAll(async () => {
    fs.mkdirSync(dataDir);
    env = { DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, JOBS: '0' };
    if (process.env.DATABASE_URL) {
      const scratch = await createScratchDatabase();
      drop = scratch.drop;
      env.DATABASE_URL = scratch.url;
    } else {
      // The run's migrated template (tests/setup/db-template.ts) spares the server a fresh initdb.
      const root = inject('pgliteTemplateRoot');
      if (root) fs.cpSync(path.join(root, 'template'), path.join(dataDir, 'db'), { recursive: true });
    }
    server = await startServerProcess(env);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await restarted?.stop();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes uploads in flight, answers 503 to new requests, ends streams and exits 0', async () => {
    const first = server!;
    const token = await signIn(first.baseURL);
    const stream = await openSse(first.baseURL, token);
    await stream.connected();
    // A kept-alive connection, idle when the signal comes.
    const keepAlive = new http.Agent({ keepAlive: true });
    const idle = await new Promise<number>((resolve, reject) => {
      http
        .get(`${first.baseURL}/api/health`, { agent: keepAlive }, (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
        })
        .once('error', reject);
    });
    expect(idle).toBe(200);

    const uploads = Array.from({ length: UPLOADS }, (_, i) => slowUpload(first.baseURL, token, i + 1));
    for (const upload of uploads) upload.sendMore();
    // Each upload is being staged (its handler runs) before the signal: a .part file per upload.
    const staging = path.join(dataDir, 'uploads', '.tmp');
    const staged = () => (fs.existsSync(staging) ? fs.readdirSync(staging).length : 0);
    await expect.poll(staged, { timeout: 30_000 }).toBe(UPLOADS);

    first.kill('SIGTERM');
    // A new request (a new connection) after the signal: 503 in the envelope, in its language.
    await expect
      .poll(async () => (await freshGet(`${first.baseURL}/api/health`)).status, { timeout: 10_000 })
      .toBe(503);
    const refused = await freshGet(`${first.baseURL}/api/v1/resources/assets`, {
      authorization: `Bearer ${token}`,
      'accept-language': 'en',
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(refused.body)).toEqual({
      code: 503,
      message: translate('en', 'errors.shutting_down'),
      data: null,
    });
    // The same signal again (npm forwards a Ctrl-C the server got already) does not cut the drain short.
    first.kill('SIGTERM');
    const zh = await freshGet(`${first.baseURL}/api/v1`);
    expect(JSON.parse(zh.body)).toMatchObject({
      code: 503,
      message: translate('zh-CN', 'errors.shutting_down'),
    });
    expect(translate('zh-CN', 'errors.shutting_down')).not.toBe(translate('en', 'errors.shutting_down'));

    // The rest of each body arrives after the signal, piece by piece, the uploads interleaved.
    let sending = true;
    while (sending) {
      sending = false;
      for (const upload of uploads) if (upload.sendMore()) sending = true;
      await new Promise((resolve) => setImmediate(resolve));
    }
    for (const upload of uploads) if (upload.sendMore()) throw new Error('body not fully sent');
    const answers = await Promise.all(uploads.map((u) => u.response));
    for (const answer of answers) expect(answer.status, answer.body).toBe(201);
    await stream.ended(30_000);
    const exit = await first.exited();
    expect(exit, first.output()).toEqual({ code: 0, signal: null });
    expect(first.output()).not.toMatch(/^\s+at /m);
    keepAlive.destroy();

    // After a restart on the same data, every upload reads back byte for byte.
    restarted = await startServerProcess(env);
    const again = await signIn(restarted.baseURL);
    for (const [i, answer] of answers.entries()) {
      const { data } = JSON.parse(answer.body) as { data: { id: string; size: number } };
      expect(data.size).toBe(uploads[i]!.content.length);
      const download = await fetch(`${restarted.baseURL}/api/v1/resources/assets/${data.id}/download`, {
        headers: { authorization: `Bearer ${again}` },
      });
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(uploads[i]!.content)).toBe(true);
    }
  }, 180_000);

  it('cuts what still runs when the grace period is over, then closes and exits 0', async () => {
    // The first case stopped its servers; this one starts on the same data with a 1 s grace period.
    await restarted?.stop();
    restarted = await startServerProcess({ ...env, SHUTDOWN_GRACE_SECONDS: '1' });
    const stalled = slowUpload(restarted.baseURL, await signIn(restarted.baseURL), 9);
    const staging = path.join(dataDir, 'uploads', '.tmp');
    const before = fs.existsSync(staging) ? fs.readdirSync(staging).length : 0;
    stalled.sendMore();
    await expect
      .poll(() => (fs.existsSync(staging) ? fs.readdirSync(staging).length : 0), { timeout: 30_000 })
      .toBe(before + 1);

    // The rest of its body never comes: the server waits the grace period, cuts it and exits 0.
    restarted.kill('SIGTERM');
    await expect(stalled.response).rejects.toThrow();
    const exit = await restarted.exited();
    expect(exit, restarted.output()).toEqual({ code: 0, signal: null });
    expect(restarted.output()).toContain('shutdown grace period over: requests cut');
    expect(restarted.output()).not.toMatch(/^\s+at /m);
  }, 180_000);
});
