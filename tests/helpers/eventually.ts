/**
 * Bounded waits for tests: `eventually(check)` calls `check` until it returns (or resolves) without throwing
 * and gives back what it returned; when the deadline passes first, it throws an error saying what was waited
 * for, for how long and how many tries, with the last failure's message (and the failure as `cause`).
 * `check` asserts with `expect(...)` or throws; a check that should stop the wait at once (a server process
 * that exited) throws `giveUp(error)`, which is rethrown as it is. Tries never overlap: the next starts
 * `intervalMs` after the previous one ended, and a try that is still running at the deadline is awaited.
 *
 * Example: `const row = await eventually(async () => { const r = await get(); expect(r.state).toBe('done');
 * return r; }, { timeoutMs: 15_000, what: 'the job to complete' })`.
 *
 * For a single value `expect.poll(fn).toBe(x)` reads as well; use this when the check is several assertions,
 * needs the value afterwards, or must stop early.
 */
export interface EventuallyOptions {
  /** How long to keep trying, from the first call (default 10 s). */
  timeoutMs?: number;
  /** Pause between the end of a try and the next (default 100 ms). */
  intervalMs?: number;
  /** What is waited for, for the message: "the server to be ready". */
  what?: string;
}

class GiveUp extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
  }
}

/** Thrown from a check, ends `eventually` at once with `reason`. Example: `throw giveUp(new Error('exited'))`. */
export function giveUp(reason: unknown): Error {
  return new GiveUp(reason);
}

export async function eventually<T>(
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 100, what = 'the check to pass' }: EventuallyOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let tries = 0;
  let last: unknown;
  for (;;) {
    tries += 1;
    try {
      return await check();
    } catch (err) {
      if (err instanceof GiveUp) throw err.reason;
      last = err;
    }
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, deadline - Date.now())));
  }
  const reason = last instanceof Error ? last.message : String(last);
  throw new Error(`waited ${timeoutMs} ms (${tries} tries) for ${what}; last failure: ${reason}`, {
    cause: last,
  });
}
