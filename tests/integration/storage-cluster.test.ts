import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../helpers/pgDatabase.ts';
import { startLoopbackS3, type LoopbackS3 } from '../helpers/s3.ts';
import { startServerProcess, type ServerProcess } from '../helpers/serverProcess.ts';

const PASSWORD = 'storage-cluster-password-1';
const BIG = 200 * 1024 * 1024;
const BLOCK = 1024 * 1024;
/**
 * Growth of a server's peak resident memory over its idle size, at most, while 200 MB go through it. A
 * server that held the file would grow by at least BIG (200 MB, copies aside). One that streams still grows:
 * V8 reclaims Buffers (external memory) only once some 64 MB of them are outstanding since the last
 * collection, on top of its heap's own headroom, so peaks of 60-105 MB were seen on a busy 2-core machine
 * (STORAGE=postgres) with no leak. Three quarters of the file keeps the two cases apart.
 */
const MAX_GROWTH = (BIG * 3) / 4;
const BOUNDARY = '----storage-cluster';

/**
 * Two server processes on one PostgreSQL, with STORAGE=postgres and again with STORAGE=s3 (s3rver on
 * loopback): what one takes, the other serves byte for byte; what one deletes, the other no longer has; and
 * 200 MB in and out leave each server's memory flat (peak RSS from /proc, a generous bound: this measures
 * memory, not time). PGlite is one process's embedded database, so there is no second server on it: this
 * file runs under `npm run test:pg` only.
 */
describe.skipIf(!process.env.DATABASE_URL)('two servers sharing storage (PostgreSQL)', () => {
  let s3: LoopbackS3;
  beforeAll(async () => {
    s3 = await startLoopbackS3();
  });
  afterAll(async () => {
    await s3?.close();
  });

  describe.each(['postgres', 's3'] as const)('STORAGE=%s', (driver) => {
    let servers: ServerProcess[] = [];
    let drop: () => Promise<void>;
    let token: string;
    beforeAll(async () => {
      const scratch = await createScratchDatabase();
      drop = scratch.drop;
      const env = {
        DATABASE_URL: scratch.url,
        ADMIN_PASSWORD: PASSWORD,
        JOBS: '0',
        STORAGE: driver,
        ...(driver === 's3' ? s3.env : {}),
      };
      servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      const login = await fetch(`${servers[0]!.baseURL}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: PASSWORD, remember: false }),
      });
      token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
      const limit = await fetch(`${servers[0]!.baseURL}/api/v1/settings/basic`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ upload_max_size: BIG + BLOCK, activity_retention_days: 180 }),
      });
      expect(limit.status).toBe(200);
    }, 120_000);
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await drop?.();
    }, 60_000);

    const auth = () => ({ authorization: `Bearer ${token}` });
    const upload = (server: ServerProcess, name: string, chunks: () => AsyncGenerator<Buffer>) => {
      async function* body() {
        yield Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
            'Content-Type: application/pdf\r\n\r\n',
        );
        yield* chunks();
        yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
      }
      return fetch(`${server.baseURL}/api/v1/resources/assets`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: Readable.toWeb(Readable.from(body())),
        duplex: 'half',
      } as RequestInit);
    };
    const download = async (server: ServerProcess, id: string) => {
      const res = await fetch(`${server.baseURL}/api/v1/resources/assets/${id}/download`, {
        headers: auth(),
      });
      if (res.status !== 200) return { status: res.status, size: 0, sha: '' };
      const hash = crypto.createHash('sha256');
      let size = 0;
      for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
        hash.update(part);
        size += part.length;
      }
      return { status: 200, size, sha: hash.digest('hex'), type: res.headers.get('content-type') };
    };

    it('an upload through one downloads byte-identical through the other; a delete is a 404 on both', async () => {
      const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(300_000)]);
      const res = await upload(servers[0]!, 'shared.pdf', async function* () {
        yield pdf;
      });
      expect(res.status).toBe(201);
      const id = ((await res.json()) as { data: { id: string } }).data.id;
      const there = await download(servers[1]!, id);
      expect(there).toMatchObject({ status: 200, size: pdf.length, type: 'application/pdf' });
      expect(there.sha).toBe(crypto.createHash('sha256').update(pdf).digest('hex'));
      const removed = await fetch(`${servers[1]!.baseURL}/api/v1/resources/assets/${id}`, {
        method: 'DELETE',
        headers: auth(),
      });
      expect(removed.status).toBe(200);
      expect((await download(servers[0]!, id)).status).toBe(404);
      expect((await download(servers[1]!, id)).status).toBe(404);
    }, 60_000);

    it('200 MB up through one and down through the other keep every server’s memory flat', async () => {
      const block = crypto.randomBytes(BLOCK);
      block.write('%PDF-1.4\n');
      const sent = crypto.createHash('sha256');
      for (const s of servers) s.resetPeak();
      const idle = servers.map((s) => s.rss());
      const res = await upload(servers[0]!, 'big.pdf', async function* () {
        for (let i = 0; i < BIG / BLOCK; i += 1) {
          // Every block differs (its number at offset 16), so a misplaced chunk changes the hash.
          const piece = Buffer.from(block);
          piece.writeUInt32BE(i, 16);
          sent.update(piece);
          yield piece;
        }
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const id = ((await res.json()) as { data: { id: string } }).data.id;
      const expected = sent.digest('hex');
      // Down through the other server: one server streamed it in, the other streams it out.
      expect(await download(servers[1]!, id)).toMatchObject({ status: 200, size: BIG, sha: expected });
      const growth = servers.map((s, i) => s.peakRss() - idle[i]!);
      process.stdout.write(
        `[storage-cluster] ${driver}: peak RSS growth ${growth.map((g) => `${(g / 1048576).toFixed(1)} MB`).join(', ')}\n`,
      );
      for (const g of growth) expect(g).toBeLessThan(MAX_GROWTH);
    }, 240_000);
  });
});
