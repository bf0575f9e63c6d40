import * as z from 'zod';

/**
 * One line of the system log as `GET v1/system/logs` (and the `log` live event) carries it: time, level and
 * message up front, the whole scrubbed pino record too; `file` is the file it came from (`node:<id>` for
 * lines another server published). Read by the logs page.
 */
export const logEntrySchema = z.object({
  time: z.string().nullable(),
  level: z.string(),
  msg: z.string(),
  file: z.string(),
  record: z.record(z.string(), z.unknown()),
});
export type LogEntry = z.infer<typeof logEntrySchema>;
