import type { Locale } from '../../../locales/index.ts';
import type { Resource } from '../../../resources/define.ts';
import type { Actor } from '../write/audit.ts';
import type { RawQuery } from '../list/query.ts';

/** A large export or import handed to a background job (202). */
export interface JobTicket {
  job_id: string;
  queue: string;
  state: 'queued';
}

/** What an import run was asked to do: check only, or write; match existing records by a unique field. */
export interface ImportOptions {
  dryRun: boolean;
  upsert: string | null;
}

/**
 * What the export and import operations need of background jobs (csv/jobs.ts implements it): from how many
 * rows on a call becomes a job, whether this server can queue one now, and the two queue calls.
 */
export interface CsvQueue {
  /** More rows than this run as a job. */
  readonly threshold: number;
  /** Whether this server can queue jobs now (pg-boss running here); otherwise CSV work stays in the request. */
  isRunning(): boolean;
  queueExport(resource: Resource, raw: RawQuery, actor: Actor, locale: Locale): Promise<JobTicket>;
  queueImport(
    resource: Resource,
    rows: string[][],
    options: ImportOptions,
    actor: Actor,
    locale: Locale,
  ): Promise<JobTicket>;
}
