import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { startServer, type RunningServer } from '../../server/main.ts';
import { createScratchDatabase } from '../helpers/pgDatabase.ts';
import { serverTestEnv } from '../helpers/serverProcess.ts';

const ROUNDS = 10;

/**
 * A rolling deploy or a fleet restart starts several servers at the same instant. Each round starts three
 * servers (server/main.ts's start-up: migrate, first admin, app with pg-boss, listen) on one empty
 * PostgreSQL database at once; every one must come up, serve, and get its job runtime running (pg-boss's
 * queue creation used to deadlock and kill one of them). PGlite is one process's embedded database, so
 * there is no second server to race: this file runs under `npm run test:pg` only.
 */
describe.skipIf(!process.env.DATABASE_URL)('three servers starting together (PostgreSQL)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`all come up and serve, ${ROUNDS} rounds in a row`, async () => {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const scratch = await createScratchDatabase();
      const servers: RunningServer[] = [];
      try {
        const configs = [1, 2, 3].map((n) => {
          const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `admin-start-${n}-`));
          dirs.push(dataDir);
          return {
            ...loadConfig({
              DATABASE_URL: scratch.url,
              ...serverTestEnv(dataDir, 0, 'silent'),
              ADMIN_PASSWORD: 'three-servers-password-1',
              JOBS_POLL_SECONDS: '0.5',
              JOBS_CRON_SECONDS: '1',
            }),
          };
        });
        const started = await Promise.allSettled(configs.map((config) => startServer(config)));
        for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
        const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
        expect(failures, `round ${round}`).toEqual([]);
        for (const server of servers) {
          expect((await fetch(`${server.address}/api/health/ready`)).status).toBe(200);
          const login = await fetch(`${server.address}/api/v1/user/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username: 'admin', password: 'three-servers-password-1' }),
          });
          expect(login.status, `round ${round}`).toBe(200);
        }
        // The job runtime is up on every server (a failed first try is retried in the background).
        await expect
          .poll(() => servers.map((s) => s.app.jobs.isRunning), {
            timeout: 20_000,
            interval: 100,
            message: `round ${round}`,
          })
          .toEqual([true, true, true]);
      } finally {
        await Promise.all(servers.map((s) => s.close()));
        await scratch.drop();
      }
    }
  }, 600_000);
});
