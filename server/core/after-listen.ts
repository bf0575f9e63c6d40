import type { FastifyInstance } from 'fastify';

/** How long after listening a server that starts runs the work its first answers do not need. */
export const AFTER_LISTEN_MS = 1_000;

/**
 * Runs `work` AFTER_LISTEN_MS after `app` listens, so that it does not compete with the server's first
 * answers (issue 37 item 3: cold start): pg-boss and the task scheduler, the node's first figures, the
 * anchors' LISTEN. Only for an app that listens (AppContext.startsAfterListen); an app used through `inject`
 * runs the same work from its own onReady hook.
 *
 * Returns `settle`, for the caller's onClose: it cancels the work if its time has not come yet and waits for
 * it if it has begun, so that what the caller then stops is not still being started. `work` handles its own
 * failures; one that still throws is given to `settle`'s caller.
 */
export function soonAfterListen(app: FastifyInstance, work: () => Promise<void> | void): () => Promise<void> {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let settled = false;
  app.addHook('onListen', () => {
    if (settled) return;
    timer = setTimeout(() => {
      timer = null;
      running = (async () => work())();
      // Held for `settle`; a rejection is handled there, not reported as unhandled in between.
      running.catch(() => undefined);
    }, AFTER_LISTEN_MS);
    timer.unref();
  });
  return async () => {
    settled = true;
    if (timer) clearTimeout(timer);
    timer = null;
    await running;
  };
}
