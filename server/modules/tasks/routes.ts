import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { taskRecordSchema, taskRunSchema } from '../../../schemas/tasks.ts';
import { wireTime } from '../../../schemas/wire.ts';
import { actorOf } from '../../core/activity.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { answerJson, inputJson, NULL_ANSWER, pagedAnswerJson } from '../../core/openapi.ts';
import { pageOf, pageQuerySchema, paged } from '../../core/paged.ts';
import { requirePermission } from '../../core/principal.ts';
import type { Db } from '../../db/index.ts';
import type { JobsRuntime } from '../../jobs/runtime.ts';
import { describeHandler, type TaskHandlers } from './handlers.ts';
import { taskQueue, type TaskScheduler } from './scheduler.ts';
import { createTask, deleteTask, syncAfterCommit, updateTask } from './operations.ts';
import * as store from './store.ts';
import { previewSchema, taskSchema, validatePreview } from './validate.ts';

const BASE = '/api/v1/system/tasks';
const P = PERMISSION.systemTasks;
const doc = (summary: string, schema: Record<string, unknown>) => ({
  schema: { tags: ['tasks'], summary, ...schema },
});

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
const taskAnswer = { 200: answerJson(taskRecordSchema) };

/**
 * `v1/system/tasks`: list, read (with `next_runs`), create, update, delete, `POST <id>/run` (runs now),
 * `GET <id>/runs` (history), `GET handlers` (what a task may call, with the JSON Schema of its parameters)
 * and `POST preview` (next five run times of a cron expression). Reading needs `system.system.tasks`;
 * writing and running need `.create`, `.update` (run too) or `.delete`. Every write is audited.
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
  app.get(
    BASE,
    doc('Scheduled tasks', {
      querystring: inputJson(pageQuerySchema),
      response: { 200: pagedAnswerJson(taskRecordSchema) },
    }),
    async (request) => {
      await requirePermission(request, P);
      const { page, size } = pageOf(request.query);
      const { rows, total } = await store.listTaskRows(db, { limit: size, offset: (page - 1) * size });
      return ok(paged(rows.map(store.toRecord), { total, page, size }));
    },
  );

  app.get(
    `${BASE}/handlers`,
    doc('Task handlers a task may call', {
      response: { 200: answerJson(z.array(handlerInfoSchema)) },
    }),
    async (request) => {
      await requirePermission(request, P);
      return ok(handlers.all().map((h) => ({ ...describeHandler(h), label: request.t(h.description) })));
    },
  );

  app.post(
    `${BASE}/preview`,
    doc('Next five run times of a cron expression', {
      body: inputJson(previewSchema),
      response: { 200: answerJson(nextRuns) },
    }),
    async (request) => {
      await requirePermission(request, P);
      const { cron, timezone } = validatePreview(request.body);
      return ok({ next_runs: store.safeNextRuns(cron, timezone, 5) });
    },
  );

  app.get(
    `${BASE}/:id`,
    doc('One task with its next five run times', {
      response: { 200: answerJson(taskRecordSchema.extend(nextRuns.shape)) },
    }),
    async (request) => {
      await requirePermission(request, P);
      const row = await mustFind(db, idOf(request));
      return ok({ ...store.toRecord(row), next_runs: store.safeNextRuns(row.cron, row.timezone, 5) });
    },
  );

  app.get(
    `${BASE}/:id/runs`,
    doc('Run history of a task, newest first', {
      querystring: inputJson(pageQuerySchema),
      response: { 200: pagedAnswerJson(taskRunSchema) },
    }),
    async (request) => {
      await requirePermission(request, P);
      const row = await mustFind(db, idOf(request));
      const { page, size } = pageOf(request.query);
      const { rows, total } = await store.listRuns(db, String(row.id), {
        limit: size,
        offset: (page - 1) * size,
      });
      return ok(paged(rows, { total, page, size }));
    },
  );

  app.post(
    BASE,
    doc('Create a task', {
      body: inputJson(taskSchema),
      response: { 201: answerJson(taskRecordSchema) },
    }),
    async (request, reply) => {
      const principal = await requirePermission(request, `${P}.create`);
      const task = await createTask(deps, { body: request.body, actor: actorOf(request, principal.userId) });
      return reply.code(201).send(ok(task));
    },
  );

  app.patch(
    `${BASE}/:id`,
    doc('Update a task', { body: inputJson(taskSchema.partial()), response: taskAnswer }),
    async (request) => {
      const principal = await requirePermission(request, `${P}.update`);
      const actor = actorOf(request, principal.userId);
      return ok(await updateTask(deps, { id: idOf(request), body: request.body, actor }));
    },
  );

  app.delete(
    `${BASE}/:id`,
    doc('Delete a task and its history', { response: { 200: NULL_ANSWER } }),
    async (request) => {
      const principal = await requirePermission(request, `${P}.delete`);
      await deleteTask(deps, { id: idOf(request), actor: actorOf(request, principal.userId) });
      return ok(null);
    },
  );

  app.post(
    `${BASE}/:id/run`,
    doc('Run a task now', { response: { 202: answerJson(runTicketSchema) } }),
    async (request, reply) => {
      const principal = await requirePermission(request, `${P}.update`);
      const row = await mustFind(db, idOf(request));
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
  );
}

function idOf(request: FastifyRequest): string {
  return (request.params as { id: string }).id;
}

async function mustFind(db: Db, id: string): Promise<store.TaskRow> {
  const row = await store.findTaskRow(db, id);
  if (!row) throw AppError.notFound();
  return row;
}
