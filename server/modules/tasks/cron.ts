import { createRequire } from 'node:module';
import type * as CronParser from 'cron-parser';

/**
 * cron-parser, loaded from node_modules on first use: with luxon it is 360 kB that every start would read and
 * compile for the few calls that check or list a task's schedule (issue 37, item 3). A `require` through
 * createRequire is left to node by esbuild, so `npm start`'s bundle does not hold it.
 */
let parser: typeof CronParser.CronExpressionParser | undefined;
const cronParser = () =>
  (parser ??= (createRequire(import.meta.url)('cron-parser') as typeof CronParser).CronExpressionParser);

/** Field errors (message keys) of a cron expression and time zone; empty when both are valid. */
export function cronErrors(cron: unknown, timezone: unknown): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (typeof timezone !== 'string' || !isTimeZone(timezone))
    errors.timezone = ['system.tasks.errors.bad_timezone'];
  if (typeof cron !== 'string' || !isCron(cron)) errors.cron = ['system.tasks.errors.bad_cron'];
  return errors;
}

/**
 * Five-field cron (minute hour day-of-month month day-of-week, with `*`, lists, ranges, steps and names).
 * pg-boss checks schedules once per interval and runs a schedule at most once a minute, so a six-field
 * expression with seconds would promise what it cannot keep: it is refused.
 */
export function isCron(expression: string): boolean {
  const trimmed = expression.trim();
  if (trimmed.length > 100 || trimmed.split(/\s+/).length !== 5) return false;
  try {
    cronParser().parse(trimmed, { tz: 'UTC' });
    return true;
  } catch {
    return false;
  }
}

export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The next `count` run times after `from`, as ISO strings in UTC. Example: `nextRuns('0 3 * * *', 'Asia/Shanghai')`. */
export function nextRuns(cron: string, timezone: string, count = 5, from = new Date()): string[] {
  const expression = cronParser().parse(cron.trim(), { tz: timezone, currentDate: from });
  return expression.take(count).map((d) => d.toDate().toISOString());
}
