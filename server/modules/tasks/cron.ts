import { CronExpressionParser } from 'cron-parser';

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
    CronExpressionParser.parse(trimmed, { tz: 'UTC' });
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
  const expression = CronExpressionParser.parse(cron.trim(), { tz: timezone, currentDate: from });
  return expression.take(count).map((d) => d.toDate().toISOString());
}
