import { createJobsRuntime, type JobsRuntime } from '../../jobs/runtime.ts';
import { createTaskScheduler, type TaskScheduler } from '../tasks/scheduler.ts';
import { registerTaskRoutes } from '../tasks/routes.ts';
import type { AppModule } from '../types.ts';
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
 * answer on every server, whether or not it runs jobs itself (`JOBS=0`).
 */
export const jobsModule: AppModule = {
  name: 'jobs',
  register(app, ctx) {
    const jobs = createJobsRuntime(ctx);
    const scheduler = createTaskScheduler(ctx, jobs);
    app.decorate('jobs', jobs);
    app.decorate('tasks', scheduler);
    registerTaskRoutes(app, { db: ctx.db, jobs, scheduler });
    registerJobRoutes(app, { db: ctx.db, jobs });
    app.addHook('onReady', async () => {
      await jobs.start();
      await scheduler.start();
    });
    app.addHook('onClose', async () => {
      scheduler.stop();
      await jobs.stop();
    });
  },
};
