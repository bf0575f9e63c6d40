import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { negotiateLocale } from '../../../locales/index.ts';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { taskRecordSchema, taskRunSchema } from '../../../schemas/tasks.ts';
import { wireTime } from '../../../schemas/wire.ts';
import { actorOf } from '../../core/activity.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { pageOf, pageQuerySchema, paged } from '../../core/paged.ts';
import { pagedOf, permission, route, unchecked } from '../../core/route.ts';
import type { Db } from '../../db/index.ts';
import type { JobsRuntime } from '../../jobs/runtime.ts';
import { describeHandler, type TaskHandlers } from './handlers.ts';
import { taskQueue, type TaskScheduler } from './scheduler.ts';
import { createTask, deleteTask, syncAfterCommit, updateTask } from './operations.ts';
import * as store from './store.ts';
import { previewSchema, taskSchema, validatePreview } from './validate.ts';

const BASE = '/api/v1/system/tasks';
const P = PERMISSION.systemTasks;
const TAGS = ['tasks'];

const handlerInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  label: z.string(),
  params_schema: z.record(z.string(), z.unknown()),
});
const nextRuns = z.object({ next_runs: z.array(wireTime) });
const runTicketSchema = z.object({
  job_id: z.string().nullable(),
  queue: z.string().nullable(),
  run_id: z.string().nullable(),
});
const idParams = z.object({ id: z.string() });
// Paging is lenient (pageOf: anything unreadable is the default).
const pageQuery = unchecked(pageQuerySchema);

/**
 * `v1/system/tasks`: list, read (with `next_runs`), create, update, delete, `POST <id>/run` (runs now),
 * `GET <id>/runs` (history), `GET handlers` (what a task may call, with the JSON Schema of its parameters)
 * and `POST preview` (next five run times of a cron expression). Reading needs `system.system.tasks`;
 * writing and running need `.create`, `.update` (run too) or `.delete`. Every write is audited. Task bodies
 * are validated by the operations (operations.ts, which also check the handler's parameters).
 */
export function registerTaskRoutes(
  app: FastifyInstance,
  {
    db,
    jobs,
    scheduler,
    handlers,
  }: { db: Db; jobs: JobsRuntime; scheduler: TaskScheduler; handlers: TaskHandlers },
): void {
  const log = app.log;
  const deps = { db, scheduler, handlers, log };
  route(app, {
    method: 'GET',
    url: BASE,
    tags: TAGS,
    summary: 'Scheduled tasks',
    access: permission(P),
    query: pageQuery,
    responses: { 200: pagedOf(taskRecordSchema) },
    handler: async ({ query }) => {
      const { page, size } = pageOf(query);
      const { rows, total } = await store.listTaskRows(db, { limit: size, offset: (page - 1) * size });
      return ok(paged(rows.map(store.toRecord), { total, page, size }));
    },
  });

  route(app, {
    method: 'GET',
    url: `${BASE}/handlers`,
    tags: TAGS,
    summary: 'Task handlers a task may call',
    access: permission(P),
    responses: { 200: z.array(handlerInfoSchema) },
    handler: async ({ request }) =>
      ok(handlers.all().map((h) => ({ ...describeHandler(h), label: request.t(h.description) }))),
  });

  route(app, {
    method: 'POST',
    url: `${BASE}/preview`,
    tags: TAGS,
    summary: 'Next five run times of a cron expression',
    access: permission(P),
    // validatePreview checks the expression in its time zone (validate.ts).
    body: unchecked(previewSchema),
    responses: { 200: nextRuns },
    handler: async ({ body }) => {
      const { cron, timezone } = validatePreview(body);
      return ok({ next_runs: store.safeNextRuns(cron, timezone, 5) });
    },
  });

  route(app, {
    method: 'GET',
    url: `${BASE}/:id`,
    tags: TAGS,
    summary: 'One task with its next five run times',
    access: permission(P),
    params: idParams,
    responses: { 200: taskRecordSchema.extend(nextRuns.shape) },
    handler: async ({ params }) => {
      const row = await mustFind(db, params.id);
      return ok({ ...store.toRecord(row), next_runs: store.safeNextRuns(row.cron, row.timezone, 5) });
    },
  });

  route(app, {
    method: 'GET',
    url: `${BASE}/:id/runs`,
    tags: TAGS,
    summary: 'Run history of a task, newest first',
    access: permission(P),
    params: idParams,
    query: pageQuery,
    responses: { 200: pagedOf(taskRunSchema) },
    handler: async ({ params, query, request }) => {
      const row = await mustFind(db, params.id);
      const { page, size } = pageOf(query);
      // A JOBS=0 server has no reaper: runs whose server died are closed when someone looks.
      await scheduler.closeStranded(negotiateLocale(request.headers['accept-language']));
      const { rows, total } = await store.listRuns(db, String(row.id), {
        limit: size,
        offset: (page - 1) * size,
      });
      return ok(paged(rows, { total, page, size }));
    },
  });

  route(app, {
    method: 'POST',
    url: BASE,
    tags: TAGS,
    summary: 'Create a task',
    access: permission(`${P}.create`),
    body: unchecked(taskSchema),
    responses: { 201: taskRecordSchema },
    handler: async ({ body, principal, request, reply }) => {
      const task = await createTask(deps, { body, actor: actorOf(request, principal.userId) });
      return reply.code(201).send(ok(task));
    },
  });

  route(app, {
    method: 'PATCH',
    url: `${BASE}/:id`,
    tags: TAGS,
    summary: 'Update a task',
    access: permission(`${P}.update`),
    params: idParams,
    body: unchecked(taskSchema.partial()),
    responses: { 200: taskRecordSchema },
    handler: async ({ params, body, principal, request }) => {
      const actor = actorOf(request, principal.userId);
      return ok(await updateTask(deps, { id: params.id, body, actor }));
    },
  });

  route(app, {
    method: 'DELETE',
    url: `${BASE}/:id`,
    tags: TAGS,
    summary: 'Delete a task and its history',
    access: permission(`${P}.delete`),
    params: idParams,
    responses: { 200: null },
    handler: async ({ params, principal, request }) => {
      await deleteTask(deps, { id: params.id, actor: actorOf(request, principal.userId) });
      return ok(null);
    },
  });

  route(app, {
    method: 'POST',
    url: `${BASE}/:id/run`,
    tags: TAGS,
    summary: 'Run a task now',
    access: permission(`${P}.update`),
    params: idParams,
    responses: { 202: runTicketSchema },
    handler: async ({ params, principal, reply }) => {
      const row = await mustFind(db, params.id);
      const id = String(row.id);
      if (!jobs.isRunning) {
        // No pg-boss in this process (JOBS=0): run here and answer when done.
        const runId = await scheduler.runInline(id, principal.userId).catch(() => null);
        return reply.code(202).send(ok({ job_id: null, queue: null, run_id: runId }));
      }
      await syncAfterCommit({ scheduler, log });
      const jobId = await jobs.send(
        taskQueue(id),
        { task_id: id, trigger: 'manual', user_id: principal.userId },
        { retryLimit: 0 },
      );
      return reply.code(202).send(ok({ job_id: jobId, queue: taskQueue(id), run_id: null }));
    },
  });
}

async function mustFind(db: Db, id: string): Promise<store.TaskRow> {
  const row = await store.findTaskRow(db, id);
  if (!row) throw AppError.notFound();
  return row;
}
