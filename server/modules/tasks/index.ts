/**
 * Scheduled tasks, as the jobs module mounts them (jobs/index.ts: tasks run on its pg-boss) and the app lists
 * their handlers (modules/index.ts). Other modules import tasks only from here (eslint.config.js).
 */
export {
  defineTaskHandler,
  maintenanceTaskHandlers,
  taskHandlerTable,
  type TaskHandler,
  type TaskHandlers,
} from './handlers.ts';
export { registerTaskRoutes } from './routes.ts';
export { createTaskScheduler, type TaskScheduler } from './scheduler.ts';
