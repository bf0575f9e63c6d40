import crypto from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify';
import { translate, type Locale } from '../../../locales/index.ts';
import type { Resource } from '../../../resources/define.ts';
import type { Config } from '../../config.ts';
import { appErrorOfDb } from '../../core/db-errors.ts';
import { AppError } from '../../core/errors.ts';
import { can } from '../../core/principal.ts';
import { loadPrincipal } from '../accounts.ts';
import type { Db } from '../../db/index.ts';
import type { JobContext, JobsRuntime, QueueDefinition } from '../../jobs/runtime.ts';
import type { FileStorage } from '../../storage/index.ts';
import type { Actor } from '../write/audit.ts';
import {
  CSV_KEEP_HOURS,
  csvFileKey,
  EXPORT_GZIP_LEVEL,
  GZIP_SUFFIX,
  removeOldCsvFiles,
  writeCsvFile,
} from './files.ts';
import { countExport, exportFileName, exportFormat, openExport, planExport } from './export.ts';
import { openXlsxExport } from './xlsx-export.ts';
import { runImport, type ImportReport } from './import.ts';
import type { CsvQueue, JobTicket } from './queue.ts';
import { hooksOf, type ResourceHooksTable } from '../hooks.ts';
import { fieldLabel, langOf } from '../labels.ts';
import type { OperationContext } from '../context.ts';
import type { RawQuery } from '../list/query.ts';
import { permissionFor, type Action } from '../access.ts';

export const CSV_EXPORT_QUEUE = 'csv-export';
export const CSV_IMPORT_QUEUE = 'csv-import';
/** Export files (and leftover import uploads) older than this are deleted before each CSV job. */
/** Exports each server fetches at once and runs side by side (the database pool has room for them). */
const EXPORT_CONCURRENCY = 4;
/** Row errors kept in an import job's output (the counts stay exact). */
const MAX_JOB_ERRORS = 1000;

/** Who asked, in which language and from where: every CSV job's data. */
interface CsvJobData {
  resource: string;
  user_id: string;
  locale: Locale;
  ip: string | null;
  user_agent: string | null;
  origin: string | null;
}
export interface ExportJobData extends CsvJobData {
  query: RawQuery;
  name: string;
}
export interface ImportJobData extends CsvJobData {
  file: string;
  rows: number;
  dry_run: boolean;
  upsert: string | null;
}

/**
 * What an export job leaves in its output: the download's file name, rows written and the file's bytes as
 * downloaded (decoded). `stored: 'gzip'`: a CSV kept compressed at `<key>.gz` (files.ts); absent for an xlsx
 * (a zip already) and for files written before issue 37.
 */
export interface ExportOutput {
  name: string;
  rows: number;
  size: number;
  stored?: 'gzip';
}

/** The engine's side of large CSV work: decides, queues, and works the two queues (see docs/operations.md). */
export interface CsvJobs extends CsvQueue {
  /** Where the jobs' files live (the configured file storage, shared by every server). */
  readonly storage: FileStorage;
  /** The queues to work (`jobs.work(...)` each once the app is ready). */
  readonly queues: QueueDefinition<never>[];
}

/**
 * Example: `const csvJobs = createCsvJobs({ db, config, storage, registry, hooks, jobs: () => app.jobs })`; routes
 * pass it to exportRecords/importRecords, and the module works `csvJobs.queues`.
 */
export function createCsvJobs({
  db,
  config,
  storage,
  registry,
  hooks,
  jobs,
}: {
  db: Db;
  config: Config;
  /** The app's file storage: export files and staged imports go there, under `jobs/` (files.ts). */
  storage: FileStorage;
  registry: readonly Resource[];
  hooks: ResourceHooksTable;
  jobs: () => JobsRuntime | null;
}): CsvJobs {
  const send = async (queue: string, data: CsvJobData): Promise<JobTicket> => {
    const runtime = jobs();
    const id = runtime ? await runtime.send(queue, data) : null;
    if (!id) throw new AppError(503, 'system.jobs.errors.not_running');
    return { job_id: id, queue, state: 'queued' };
  };
  const who = (resource: Resource, actor: Actor, locale: Locale): CsvJobData => ({
    resource: resource.name,
    user_id: actor.userId,
    locale,
    ip: actor.ip,
    user_agent: actor.userAgent,
    origin: actor.origin ?? null,
  });
  const contextOf = (data: CsvJobData) => {
    const resource = registry.find((r) => r.name === data.resource);
    if (!resource) throw new Error(`unknown resource ${data.resource}`);
    return jobOperationContext({ db, registry, hooks, resource }, data);
  };
  const audience = (action: Action) => (data: CsvJobData) => {
    const resource = registry.find((r) => r.name === data.resource);
    return resource ? { userId: data.user_id, permission: permissionFor(resource, action) } : null;
  };

  const exportQueue: QueueDefinition<ExportJobData> = {
    name: CSV_EXPORT_QUEUE,
    options: { retryLimit: 0, expireInSeconds: 4 * 60 * 60 },
    // Small exports side by side rather than one per polling interval (issue 28, item 7).
    concurrency: EXPORT_CONCURRENCY,
    // Writing the same file again is harmless: an export cut off by a crash runs once more.
    orphaned: 'retry',
    audience: audience('export'),
    handler: ({ id, data, progress }) =>
      failingPlainly(data.locale, async () => {
        const ctx = contextOf(data);
        const actor = await ctx.authorize('export');
        // The old-files sweep and the row count (progress's total) run beside the export, not before it:
        // neither changes the file, and on PostgreSQL each takes a connection of its own (issue 37).
        const tidying = tidy(storage);
        const filters = hooksOf(hooks, ctx.resource).filters;
        const plan = await planExport(ctx.db, ctx.resource, data.query, {
          registry,
          principal: actor.principal,
          filters,
          locale: data.locale,
        });
        const counting = countExport(db, ctx.resource, plan);
        // Awaited by the first progress report and at the end; until then a failure is held, not unhandled.
        counting.catch(() => undefined);
        const report = reporter(progress);
        const open = exportFormat(data.query) === 'xlsx' ? openXlsxExport : openExport;
        // PostgreSQL: a big CSV's COPY in parts on several connections (export.ts openPartedExport), which
        // needs the count first to place its bounds.
        const canPart = db.copyOut !== undefined && config.csvExportParts > 1 && open === openExport;
        const rows = canPart ? await counting : 0;
        const csv = await open(ctx, langOf(data.locale), plan, {
          onRows: async (done) => {
            const total = await counting;
            await report(Math.min(done, total), total);
          },
          ...(rows >= config.csvExportPartRows
            ? { parts: { count: config.csvExportParts, total: rows } }
            : {}),
        });
        const key = csvFileKey('exports', id);
        const finish = async () => {
          await Promise.all([counting, tidying]);
        };
        if (open === openXlsxExport) {
          const size = await writeCsvFile(storage, key, csv.stream);
          await finish();
          return { name: data.name, rows: csv.rows(), size } satisfies ExportOutput;
        }
        // Compressed once, here, in the thread pool beside the COPY; the download sends these bytes as they are.
        let size = 0;
        const counted = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            size += chunk.length;
            callback(null, chunk);
          },
        });
        // pipeline, not pipe: a database that goes away mid-COPY fails every stage of the chain and the stored
        // write with it; pipe() left the gzip stage's error unhandled, which ended the whole server.
        const gzip = pipeline(
          csv.stream,
          counted,
          zlib.createGzip({ level: EXPORT_GZIP_LEVEL }),
          () => undefined,
        );
        await writeCsvFile(storage, `${key}${GZIP_SUFFIX}`, gzip);
        await finish();
        return { name: data.name, rows: csv.rows(), size, stored: 'gzip' } satisfies ExportOutput;
      }),
  };

  const importQueue: QueueDefinition<ImportJobData> = {
    name: CSV_IMPORT_QUEUE,
    options: { retryLimit: 0, expireInSeconds: 4 * 60 * 60 },
    // An import cut off by a crash fails (its transaction rolled back; it may be retried from the jobs page):
    // one that had committed must not write its rows twice.
    orphaned: 'fail',
    audience: audience('import'),
    handler: ({ data, progress }) =>
      failingPlainly(data.locale, async () => {
        const ctx = contextOf(data);
        const actor = await ctx.authorize('import');
        const key = csvFileKey('imports', data.file);
        const rows = await readCsvFile(storage, key);
        const report = reporter(progress);
        const result = await runImport(
          ctx,
          actor,
          langOf(data.locale),
          rows,
          { dryRun: data.dry_run, upsert: data.upsert },
          {
            checked: (total) => progress(10, { done: 0, total }),
            // On PGlite the transaction holds the only connection: progress would wait for it (and deadlock).
            ...(db.kind === 'postgres'
              ? { written: (done: number, total: number) => report(done, total, 10 + (done / total) * 90) }
              : {}),
          },
        );
        // Housekeeping only: the import has committed, so a storage hiccup here must not fail the job (a
        // retry would write its rows twice). The upload left behind goes with the old files later.
        await storage.remove(key).catch(() => undefined);
        await tidy(storage);
        return capErrors(result);
      }),
  };

  return {
    threshold: config.csvJobRows,
    storage,
    isRunning: () => jobs()?.isRunning ?? false,
    queues: [exportQueue, importQueue] as QueueDefinition<never>[],
    async queueExport(resource, raw, actor, locale) {
      const data: ExportJobData = {
        ...who(resource, actor, locale),
        query: raw,
        name: exportFileName(resource, exportFormat(raw)),
      };
      return send(CSV_EXPORT_QUEUE, data);
    },
    async queueImport(resource, rows, options, actor, locale) {
      const name = crypto.randomUUID();
      await writeCsvFile(storage, csvFileKey('imports', name), Readable.from(rows).pipe(stringify()));
      const data: ImportJobData = {
        ...who(resource, actor, locale),
        file: name,
        rows: rows.length - 1,
        dry_run: options.dryRun,
        upsert: options.upsert,
      };
      return send(CSV_IMPORT_QUEUE, data);
    },
  };
}

/**
 * An OperationContext for a job: the requester's permission is checked again when the job runs (a user who
 * lost `.export`/`.import` meanwhile gets a failed job), and audit rows name them as in a request.
 */
function jobOperationContext(
  { db, registry, hooks, resource }: Pick<OperationContext, 'db' | 'registry' | 'hooks' | 'resource'>,
  data: CsvJobData,
): OperationContext {
  const lang = langOf(data.locale);
  return {
    db,
    resource,
    registry,
    hooks,
    async authorize(action) {
      const principal = await loadPrincipal(db, { userId: data.user_id, tokenId: '' });
      if (!can(principal, permissionFor(resource, action))) throw AppError.forbidden();
      return {
        userId: data.user_id,
        ip: data.ip,
        userAgent: data.user_agent,
        principal,
        ...(data.origin ? { origin: data.origin } : {}),
      };
    },
    label: (field) => fieldLabel(lang, resource, field),
  };
}

/**
 * Runs a job's work so that a failure reaches the job (and so its requester) as a plain message in the
 * requester's language: an AppError's or a database error's own message (appErrorOfDb), else a generic one.
 * Never a stack, a file path, SQL or a constraint name. The import's transaction has rolled back by then,
 * and the uploaded file is kept, so the failed job can be retried from the jobs page.
 */
async function failingPlainly<T>(locale: Locale, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const known = error instanceof AppError ? error : appErrorOfDb(error);
    const message = known
      ? translate(locale, known.key, known.params)
      : translate(locale, 'engine.csv.job_failed');
    // The cause is for the server's log line (core/http.ts safeError), never for the job's output.
    throw new Error(message, { cause: error });
  }
}

/** Progress at most twice a second (and always at the end): rows done of the total, or a given percentage. */
function reporter(progress: JobContext<unknown>['progress']) {
  let last = 0;
  return async (done: number, total: number, percent = total ? (done / total) * 100 : 100) => {
    const now = Date.now();
    if (now - last < 500 && done < total) return;
    last = now;
    await progress(percent, { done, total });
  };
}

/** The old-files clean-up each CSV job runs by the way: best effort, never the job's failure. */
async function tidy(storage: FileStorage): Promise<void> {
  await removeOldCsvFiles(storage, CSV_KEEP_HOURS).catch(() => undefined);
}

function capErrors(report: ImportReport): ImportReport & { errors_truncated?: true } {
  if (report.errors.length <= MAX_JOB_ERRORS) return report;
  return { ...report, errors: report.errors.slice(0, MAX_JOB_ERRORS), errors_truncated: true };
}

/**
 * Reads a stored import file back (written by queueImport with csv-stringify, on any server); a 410 when it
 * is gone (removed after a day, or by a successful run of the same job).
 */
async function readCsvFile(storage: FileStorage, key: string): Promise<string[][]> {
  const rows: string[][] = [];
  const { stream: input } = await storage.open(key).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') throw new AppError(410, 'engine.csv.file_gone');
    throw error;
  });
  const parser = input.pipe(parse({ relax_column_count: true, max_record_size: 1 << 20 }));
  // pipe() does not forward a read error: without this a missing file left the job (and its queue) hanging.
  input.on('error', (error) => parser.destroy(error));
  for await (const record of parser as AsyncIterable<string[]>) rows.push(record);
  return rows;
}
