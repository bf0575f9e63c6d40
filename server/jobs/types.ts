/**
 * What a queue's module declares and its handler receives (runtime.ts works them, orphans.ts settles them):
 * types only, so both import them without importing each other.
 */
/** One job as a handler receives it. */
export interface JobContext<T> {
  id: string;
  queue: string;
  data: T;
  /** Records progress (0-100) on the active job, shown by the job queues page. */
  progress(percent: number, detail?: Record<string, unknown>): Promise<void>;
}

/** A queue and the function that works its jobs; what the function returns becomes the job's output. */
export interface QueueDefinition<T = Record<string, unknown>> {
  name: string;
  handler(job: JobContext<T>): Promise<unknown>;
  /** pg-boss queue options: attempts after the first (`retryLimit`), seconds between them, time limit. */
  options?: { retryLimit?: number; retryDelay?: number; retryBackoff?: boolean; expireInSeconds?: number };
  /** Who else sees this job's events besides `system.system.jobs` holders, e.g. the user who asked for it. */
  audience?(data: T): { userId: string; permission: string } | null;
  /**
   * Jobs of this queue each server fetches at once (one pg-boss fetch of this batch size) and runs side by
   * side; each job completes or fails on its own. 1 by default.
   */
  concurrency?: number;
  /**
   * What becomes of a job whose server died while running it (./orphans.ts), once that server's heartbeat
   * has expired: `'retry'` runs it once more (an idempotent job), `'fail'` (the default) fails it, and a
   * function settles it from what the job had done (a scheduled task's run), answering the job's end.
   */
  orphaned?: 'retry' | 'fail' | ((job: { id: string; data: T; message: string }) => Promise<OrphanOutcome>);
  /** Runs each time this server starts working the queue (the runtime started): e.g. queue what was missed. */
  started?(): Promise<void>;
}

/** How an orphaned job ends: completed with an output, or failed. */
export type OrphanOutcome = { state: 'completed'; output: object | null } | { state: 'failed' };
