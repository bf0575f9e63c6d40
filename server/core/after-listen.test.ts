import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { AFTER_LISTEN_MS, soonAfterListen } from './after-listen.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function appWith(work: () => Promise<void> | void) {
  const app = Fastify();
  apps.push(app);
  const settle = soonAfterListen(app, work);
  return { app, settle };
}

describe('soonAfterListen', () => {
  it('runs the work once, AFTER_LISTEN_MS after the app listens, never before', async () => {
    const runs: number[] = [];
    const { app } = appWith(() => void runs.push(performance.now()));
    await app.ready();
    await sleep(AFTER_LISTEN_MS + 200);
    expect(runs).toEqual([]); // ready is not listening: an app used through inject never runs it

    const listened = performance.now();
    await app.listen({ port: 0, host: '127.0.0.1' });
    await sleep(AFTER_LISTEN_MS / 2);
    expect(runs).toEqual([]);
    await sleep(AFTER_LISTEN_MS);
    expect(runs).toHaveLength(1);
    expect(runs[0]! - listened).toBeGreaterThanOrEqual(AFTER_LISTEN_MS - 5);
  });

  it('settle before the time comes cancels the work', async () => {
    let ran = false;
    const { app, settle } = appWith(() => {
      ran = true;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await settle();
    await sleep(AFTER_LISTEN_MS + 200);
    expect(ran).toBe(false);
  });

  it('settle while the work runs waits for it to end', async () => {
    let release!: () => void;
    let ended = false;
    const { app, settle } = appWith(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      ended = true;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    await sleep(AFTER_LISTEN_MS + 100);
    let settled = false;
    const settling = settle().then(() => (settled = true));
    await sleep(50);
    expect(settled).toBe(false);
    release();
    await settling;
    expect(ended).toBe(true);
  });

  it('a work that throws is reported to settle, not as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { app, settle } = appWith(async () => {
        throw new Error('boom');
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      await sleep(AFTER_LISTEN_MS + 100);
      await expect(settle()).rejects.toThrow('boom');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
