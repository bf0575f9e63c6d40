import { describe, expect, it } from 'vitest';
import { eventually, giveUp } from '../helpers/eventually.ts';

describe('eventually', () => {
  it("retries until the check passes and gives back the check's value", async () => {
    let calls = 0;
    const value = await eventually(
      () => {
        calls += 1;
        expect(calls).toBeGreaterThanOrEqual(3);
        return `after ${calls}`;
      },
      { intervalMs: 1 },
    );
    expect(value).toBe('after 3');
  });

  it('throws, once the deadline passes, what it waited for, how many tries and the last failure', async () => {
    let calls = 0;
    const failure = await eventually(
      async () => {
        calls += 1;
        throw new Error(`not yet (${calls})`);
      },
      { timeoutMs: 50, intervalMs: 5, what: 'the answer' },
    ).catch((err: unknown) => err as Error);
    expect(failure.message).toBe(
      `waited 50 ms (${calls} tries) for the answer; last failure: not yet (${calls})`,
    );
    expect((failure.cause as Error).message).toBe(`not yet (${calls})`);
  });

  it('stops at once on giveUp(), rethrowing its reason', async () => {
    let calls = 0;
    const reason = new Error('the server exited');
    await expect(
      eventually(() => {
        calls += 1;
        throw giveUp(reason);
      }),
    ).rejects.toBe(reason);
    expect(calls).toBe(1);
  });
});
