import { createJobsRuntime, type JobsRuntime } from '../../jobs/runtime.ts';
import {
  createTaskScheduler,
  registerTaskRoutes,
  taskHandlerTable,
  type TaskHandler,
  type TaskScheduler,
} from '../tasks/index.ts';
import type { AppModule } from '../../core/app-module.ts';
import { soonAfterListen } from '../../core/after-listen.ts';
import { registerJobRoutes } from './routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** pg-boss of this app (running between ready and close when `config.jobs` is on). */
    jobs: JobsRuntime;
    tasks: TaskScheduler;
  }
}

/**
 * Jobs and scheduled tasks (issue 6): pg-boss starts when the app is ready (after every module has declared
 * its queues) and stops when it closes, before the database does. `v1/system/jobs` and `v1/system/tasks`
 * answer on every server, whether or not it runs jobs itself (`JOBS=0`). A task may call one of
 * `taskHandlers`, the handlers the modules declare (passed in where the app is composed, modules/index.ts).
 * Example: `createJobsModule({ taskHandlers: [...maintenanceTaskHandlers, ...reportTasks] })`
 */
export function createJobsModule({ taskHandlers }: { taskHandlers: readonly TaskHandler[] }): AppModule {
  const handlers = taskHandlerTable(taskHandlers);
  return {
    name: 'jobs',
    register(app, ctx) {
      const jobs = createJobsRuntime(ctx);
      const scheduler = createTaskScheduler(ctx, jobs, handlers);
      app.decorate('jobs', jobs);
      app.decorate('tasks', scheduler);
      registerTaskRoutes(app, { db: ctx.db, jobs, scheduler, handlers });
      registerJobRoutes(app, { db: ctx.db, jobs });
      // A failure of the job runtime (the database busy or away, a lost race with another server) never
      // stops the server: it keeps serving and tries again, every 2, 4, ... up to 60 seconds.
      let retry: NodeJS.Timeout | null = null;
      let isClosing = false;
      const startJobs = async (attempt: number): Promise<void> => {
        retry = null;
        try {
          await jobs.start();
          await scheduler.start();
          if (isClosing) throw new Error('closing');
        } catch (err) {
          scheduler.stop();
          await jobs.stop().catch(() => undefined);
          if (isClosing) return;
          const delay = Math.min(60_000, 1000 * 2 ** attempt);
          ctx.log.error({ err, retry_in_ms: delay }, 'job runtime failed to start; retrying');
          retry = setTimeout(() => void startJobs(attempt + 1), delay);
          retry.unref();
        }
      };
      // A server that listens starts them shortly after it does: its health is green as soon as it can
      // serve, and loading pg-boss does not delay the first answers (tasks and big exports fall back until
      // then).
      let settle: () => Promise<void> = async () => {};
      if (ctx.startsAfterListen) settle = soonAfterListen(app, () => startJobs(1));
      else app.addHook('onReady', () => startJobs(1));
      app.addHook('onClose', async () => {
        isClosing = true;
        await settle();
        if (retry) clearTimeout(retry);
        scheduler.stop();
        await jobs.stop();
      });
    },
  };
}
