import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startPgCluster, type PgCluster } from '../../scripts/lib/pg-cluster.ts';
import { serverTestEnv } from '../helpers/serverProcess.ts';

/**
 * A server started while its PostgreSQL is down (issue 28, item 1) does not exit: it answers 503 in the
 * envelope with Retry-After, and once the cluster is started it migrates, creates the first administrator
 * and serves. A real process (server/main.ts) on a real cluster that is stopped before the server starts.
 */
const isPg = Boolean(process.env.DATABASE_URL);
const reason =
  'needs a real PostgreSQL cluster to stop and start (runs under npm run test:pg); PGlite runs inside ' +
  'the server process and cannot become unreachable';
const PASSWORD = 'down start password';

describe.skipIf(!isPg)(
  `a server started while the database is down (${isPg ? 'PostgreSQL' : reason})`,
  () => {
    let cluster: PgCluster;
    let child: ChildProcess | null = null;
    let dataDir = '';
    let out = '';
    beforeAll(async () => {
      cluster = await startPgCluster({ log: () => {} });
      cluster.stop();
    }, 120_000);
    afterAll(async () => {
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child!.once('exit', r));
        child.kill('SIGTERM');
        const force = setTimeout(() => child?.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(force);
      }
      if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
      cluster?.destroy();
    });

    it('answers 503 until PostgreSQL starts, then migrates and serves', async () => {
      dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-node-'));
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...process.env,
          ...serverTestEnv(dataDir, port),
          DATABASE_URL: cluster.url,
          ADMIN_USERNAME: 'admin',
          ADMIN_PASSWORD: PASSWORD,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const collect = (chunk: Buffer) => {
        out = (out + chunk.toString()).slice(-8000);
      };
      child.stdout!.on('data', collect);
      child.stderr!.on('data', collect);
      const status = async (url: string) => {
        if (child!.exitCode !== null) throw new Error(`server exited (${child!.exitCode}):\n${out}`);
        try {
          return (await fetch(url)).status;
        } catch {
          return 0;
        }
      };
      await expect.poll(() => status(`${base}/api/health`), { timeout: 60_000 }).toBe(503);
      const down = await fetch(`${base}/api/v1/user/departments`, { headers: { 'accept-language': 'en' } });
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBe('5');
      expect(await down.json()).toEqual({
        code: 503,
        message: 'The database cannot be reached right now; please try again shortly',
        data: null,
      });
      // Without Accept-Language, the default language, as the app answers.
      expect(await (await fetch(`${base}/api/v1`)).json()).toEqual({
        code: 503,
        message: '数据库暂时无法连接，请稍后重试',
        data: null,
      });

      cluster.start();
      await expect.poll(() => status(`${base}/api/health/ready`), { timeout: 90_000 }).toBe(200);
      const login = await fetch(`${base}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin', password: PASSWORD, remember: false }),
      });
      expect(login.status).toBe(200);
    }, 180_000);
  },
);
