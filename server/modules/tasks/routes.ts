import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { taskRecordSchema, taskRunSchema } from '../../../schemas/tasks.ts';
import { wireTime } from '../../../schemas/wire.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { safeError } from '../../core/http.ts';
import { answerJson, inputJson, NULL_ANSWER, pagedAnswerJson } from '../../core/openapi.ts';
import { pageOf, pageQuerySchema, paged } from '../../core/paged.ts';
import { requirePermission } from '../../core/principal.ts';
import type { Db, Queryable } from '../../db/index.ts';
import type { JobsRuntime } from '../../jobs/runtime.ts';
import { describeHandler, type TaskHandlers } from './handlers.ts';
import { taskQueue, type TaskScheduler } from './scheduler.ts';
import * as store from './store.ts';
import { previewSchema, taskSchema, validatePreview, validateTask } from './validate.ts';

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
      const input = validateTask(request.body, null, handlers);
      const id = await db.transaction(async (tx) => {
        const newId = await store.insertTask(tx, input);
        await audit(tx, request, principal.userId, 'create', newId, diff(null, input));
        return newId;
      });
      await syncAfterCommit(scheduler, log);
      return reply.code(201).send(ok(store.toRecord((await store.findTaskRow(db, id))!)));
    },
  );

  app.patch(
    `${BASE}/:id`,
    doc('Update a task', { body: inputJson(taskSchema.partial()), response: taskAnswer }),
    async (request) => {
      const principal = await requirePermission(request, `${P}.update`);
      const id = idOf(request);
      await db.transaction(async (tx) => {
        const before = await store.findTaskRow(tx, id, true);
        if (!before) throw AppError.notFound();
        const input = validateTask(request.body, before, handlers);
        await store.updateTask(tx, id, input);
        const changes = diff(before, input);
        if (Object.keys(changes).length) await audit(tx, request, principal.userId, 'update', id, changes);
      });
      await syncAfterCommit(scheduler, log);
      return ok(store.toRecord((await store.findTaskRow(db, id))!));
    },
  );

  app.delete(
    `${BASE}/:id`,
    doc('Delete a task and its history', { response: { 200: NULL_ANSWER } }),
    async (request) => {
      const principal = await requirePermission(request, `${P}.delete`);
      const id = idOf(request);
      await db.transaction(async (tx) => {
        const before = await store.findTaskRow(tx, id, true);
        if (!before) throw AppError.notFound();
        await store.deleteTask(tx, id);
        await audit(tx, request, principal.userId, 'delete', id, diff(before, null));
      });
      await syncAfterCommit(scheduler, log);
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
      await syncAfterCommit(scheduler, log);
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

const AUDITED = ['name', 'handler', 'params', 'cron', 'timezone', 'state'] as const;

function diff(
  before: Partial<store.TaskInput> | null,
  after: Partial<store.TaskInput> | null,
): Record<string, [unknown, unknown]> {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of AUDITED) {
    const old = before?.[key] ?? null;
    const next = after?.[key] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(next)) changes[key] = [old, next];
  }
  return changes;
}

/** One activity_logs row, like the engine's audit (`tasks.create`, subject `tasks`). */
async function audit(
  tx: Queryable,
  request: FastifyRequest,
  userId: string,
  action: 'create' | 'update' | 'delete',
  subjectId: string,
  changes: Record<string, [unknown, unknown]>,
): Promise<void> {
  const ua = request.headers['user-agent'];
  await tx.query(
    `INSERT INTO activity_logs (operator_id, action, subject_type, subject_id, changes, ip, user_agent)
     VALUES ($1, $2, 'tasks', $3, $4, $5, $6)`,
    [
      userId,
      `tasks.${action}`,
      subjectId,
      JSON.stringify(changes),
      request.ip,
      typeof ua === 'string' ? ua.slice(0, 500) : null,
    ],
  );
}

/**
 * Brings pg-boss in line after a committed change. The change is saved whatever happens here, so a failure
 * is logged, not answered: the scheduler's periodic resync (every 15 s) tries again.
 */
async function syncAfterCommit(scheduler: TaskScheduler, log: FastifyBaseLogger): Promise<void> {
  try {
    await scheduler.sync();
  } catch (err) {
    log.error({ err: safeError(err) }, 'task sync after a change failed; the periodic resync retries');
  }
}
