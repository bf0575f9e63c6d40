import * as z from 'zod';
import { AppError } from '../../core/errors.ts';
import { validate } from '../../core/validate.ts';
import { cronErrors } from './cron.ts';
import type { TaskHandlers } from './handlers.ts';
import type { TaskInput, TaskRow } from './store.ts';

const BOOLEANS: Record<string, boolean> = { '1': true, '0': false, true: true, false: false };

/** A task's write body (whole on create; update takes any of its keys). */
export const taskSchema = z.object({
  name: z.string().trim().min(1).max(100),
  handler: z.string().trim().min(1).max(100).describe('See GET tasks/handlers'),
  params: z.record(z.string(), z.unknown()).default({}).describe("The handler's parameters"),
  cron: z.string().trim().min(1).max(100).describe('Five-field cron expression'),
  timezone: z.string().trim().min(1).max(64).default('UTC'),
  // `state` is a boolean on the wire; requests may send 1/0 (API contract, core records).
  state: z.preprocess(
    (v) => (typeof v === 'string' || typeof v === 'number' ? (BOOLEANS[String(v)] ?? v) : v),
    z.boolean().default(true),
  ),
});

/**
 * Validates a task body (a whole one on create; on update the stored task with the given keys applied):
 * the fields, then the handler (only one of `handlers`: 422 otherwise, never a free-text call target), the cron
 * expression and time zone, then the parameters against the handler's own zod schema (errors under
 * `params.<key>`). Returns the normalized task (parameters with the handler's defaults applied).
 */
export function validateTask(body: unknown, existing: TaskRow | null, handlers: TaskHandlers): TaskInput {
  const given = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const base = existing
    ? {
        name: existing.name,
        handler: existing.handler,
        params: existing.params,
        cron: existing.cron,
        timezone: existing.timezone,
        state: existing.state,
      }
    : {};
  const merged = { ...base, ...pick(given) };
  // A new handler starts from empty parameters unless the request gives them.
  if (existing && 'handler' in given && given.handler !== existing.handler && !('params' in given))
    merged.params = {};
  const data = validate(taskSchema, merged);
  const handler = handlers.get(data.handler);
  if (!handler) throw AppError.validation({ handler: ['system.tasks.errors.unknown_handler'] });
  const errors = cronErrors(data.cron, data.timezone);
  if (Object.keys(errors).length) throw AppError.validation(errors);
  // Errors come back under `params.<key>`, in the request's language.
  const { params } = validate(z.object({ params: handler.params }), { params: data.params });
  return { ...data, params: params as Record<string, unknown> };
}

/** `POST v1/system/tasks/preview` body: a cron expression and a time zone. */
export const previewSchema = z.object({
  cron: z.string().trim().min(1).max(100),
  timezone: z.string().trim().max(64).default('UTC'),
});

export function validatePreview(body: unknown): { cron: string; timezone: string } {
  const data = validate(previewSchema, body);
  const errors = cronErrors(data.cron, data.timezone);
  if (Object.keys(errors).length) throw AppError.validation(errors);
  return data;
}

function pick(given: Record<string, unknown>): Record<string, unknown> {
  const keys = ['name', 'handler', 'params', 'cron', 'timezone', 'state'];
  return Object.fromEntries(Object.entries(given).filter(([k]) => keys.includes(k)));
}
