import type { FastifyInstance } from 'fastify';
import * as z from 'zod';
import { PERMISSION } from '../../../schemas/permissions.ts';
import { ok } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { pageOf, pageQuerySchema } from '../../core/paged.ts';
import { pagedOf, permission, route, unchecked } from '../../core/route.ts';
import type { Db } from '../../db/index.ts';
import {
  BOSS_SCHEMA,
  isInstalled,
  isInternalQueue,
  JOB_STATES,
  queueCounts,
  type JobState,
} from '../../jobs/counts.ts';
import { findJob, jobRecordSchema, listJobs, type JobRecord } from '../../jobs/records.ts';
import type { JobsRuntime } from '../../jobs/runtime.ts';

const BASE = '/api/v1/system/jobs';
const P = PERMISSION.systemJobs;
const TAGS = ['jobs'];
// Job ids are pg-boss UUIDs, not record ids (see http.ts: `:id` is a record id unless `pathId: 'any'`).
const ANY_ID = { pathId: 'any' } as const;

const queueSchema = z.object({
  name: z.string(),
  task_name: z.string().nullable().describe("the scheduled task's name for a task's queue"),
  counts: z.record(z.string(), z.number().int()),
});
const jobsQuerySchema = pageQuerySchema.extend({ state: z.enum(JOB_STATES).optional() });
const queueParams = z.object({ queue: z.string() });
const jobParams = z.object({ queue: z.string(), id: z.string() });

/**
 * `v1/system/jobs`: queues with counts by state; `GET <queue>` its jobs (newest first, `state=` filter,
 * paging); `GET <queue>/<id>` one job; `POST <queue>/<id>/retry` a failed job; `POST <queue>/<id>/cancel` a
 * queued (created or waiting to retry) one. Reading needs `system.system.jobs`, retry and cancel
 * `system.system.jobs.update`.
 */
export function registerJobRoutes(app: FastifyInstance, { db, jobs }: { db: Db; jobs: JobsRuntime }): void {
  route(app, {
    method: 'GET',
    url: BASE,
    config: ANY_ID,
    tags: TAGS,
    summary: 'Job queues with counts by state',
    access: permission(P),
    responses: { 200: z.array(queueSchema) },
    handler: async () => ok(await withTaskNames(db, await queueCounts(db))),
  });

  route(app, {
    method: 'GET',
    url: `${BASE}/:queue`,
    config: ANY_ID,
    tags: TAGS,
    summary: 'Jobs of a queue, newest first',
    access: permission(P),
    params: queueParams,
    // Paging is lenient (pageOf: anything unreadable is the default); a state must be one of JOB_STATES.
    query: unchecked<Record<string, unknown> | undefined>(jobsQuerySchema),
    responses: { 200: pagedOf(jobRecordSchema) },
    handler: async ({ params, query }) => {
      const queue = await mustQueue(db, params.queue);
      const state = query?.state;
      if (state !== undefined && !JOB_STATES.includes(state as never))
        throw AppError.validation({ state: ['validation.invalid'] });
      return ok(await listJobs(db, { queue, state: state as JobState | undefined, ...pageOf(query) }));
    },
  });

  route(app, {
    method: 'GET',
    url: `${BASE}/:queue/:id`,
    config: ANY_ID,
    tags: TAGS,
    summary: 'One job',
    access: permission(P),
    params: jobParams,
    responses: { 200: jobRecordSchema },
    handler: async ({ params }) => ok(await mustJob(db, params)),
  });

  route(app, {
    method: 'POST',
    url: `${BASE}/:queue/:id/retry`,
    config: ANY_ID,
    tags: TAGS,
    summary: 'Retry a failed job',
    errors: [409],
    access: permission(`${P}.update`),
    params: jobParams,
    responses: { 200: jobRecordSchema },
    handler: async ({ params }) => {
      const job = await mustJob(db, params);
      if (job.state !== 'failed') throw new AppError(409, 'system.jobs.errors.not_failed');
      await runningBoss(jobs).retry(job.queue, job.id);
      return ok(await mustJob(db, params));
    },
  });

  route(app, {
    method: 'POST',
    url: `${BASE}/:queue/:id/cancel`,
    config: ANY_ID,
    tags: TAGS,
    summary: 'Cancel a queued job',
    errors: [409],
    access: permission(`${P}.update`),
    params: jobParams,
    responses: { 200: jobRecordSchema },
    handler: async ({ params }) => {
      const job = await mustJob(db, params);
      if (job.state !== 'created' && job.state !== 'retry')
        throw new AppError(409, 'system.jobs.errors.not_queued');
      await runningBoss(jobs).cancel(job.queue, job.id);
      return ok(await mustJob(db, params));
    },
  });
}

async function mustJob(db: Db, { queue, id }: { queue: string; id: string }): Promise<JobRecord> {
  const job = await findJob(db, queue, id);
  if (!job || isInternalQueue(queue)) throw AppError.notFound();
  return job;
}

async function mustQueue(db: Db, queue: string): Promise<string> {
  if (isInternalQueue(queue) || !(await isInstalled(db))) throw AppError.notFound();
  const { rows } = await db.query(`SELECT 1 FROM ${BOSS_SCHEMA}.queue WHERE name = $1`, [queue]);
  if (!rows.length) throw AppError.notFound();
  return queue;
}

function runningBoss(jobs: JobsRuntime) {
  if (!jobs.boss) throw new AppError(503, 'system.jobs.errors.not_running');
  return jobs.boss;
}

/**
 * Names each scheduled task's queue (`task-<id>`) after its task, so staff see "Nightly backup", not
 * "task-3"; other queues get `task_name: null` and the client labels them from its catalogue.
 */
async function withTaskNames(
  db: Db,
  queues: Awaited<ReturnType<typeof queueCounts>>,
): Promise<(Awaited<ReturnType<typeof queueCounts>>[number] & { task_name: string | null })[]> {
  const ids = queues.map((q) => TASK_QUEUE_NAME.exec(q.name)?.[1]).filter((id): id is string => !!id);
  const names = new Map<string, string>();
  if (ids.length) {
    const { rows } = await db.query<{ id: string; name: string }>(
      'SELECT id::text AS id, name FROM scheduled_tasks WHERE id = ANY($1::bigint[])',
      [ids],
    );
    for (const row of rows) names.set(`task-${row.id}`, row.name);
  }
  return queues.map((q) => ({ ...q, task_name: names.get(q.name) ?? null }));
}

const TASK_QUEUE_NAME = /^task-(\d{1,18})$/;
