import crypto from 'node:crypto';
import { stringify, type Stringifier } from 'csv-stringify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Resource } from '../../resources/define.ts';
import { ok } from '../core/envelope.ts';
import { AppError } from '../core/errors.ts';
import type { Db, Queryable } from '../db/index.ts';
import { cellWriters, type CellWriter } from './csv-format.ts';
import type { CsvJobs } from './csv-jobs.ts';
import { fieldsOf, ident } from './fields.ts';
import { fieldLabel, type Lang } from './labels.ts';
import type { OperationContext } from './operations.ts';
import { parseListQuery, type RawQuery } from './query.ts';
import { exportSelectColumns, loadRecords, type WireRecord } from './records.ts';

/** Rows fetched from the cursor per round trip. */
const BATCH = 2000;

/** What an export reads: the list query (filters and sort, no paging) and the columns. */
export interface ExportPlan {
  columns: string[];
  /** `FROM <table> <where>`, shared by the row query and the counts. */
  from: string;
  sql: string;
  params: unknown[];
}

/** Parses the export parameters (422 for unknown fields or conditions). */
export function planExport(resource: Resource, raw: RawQuery): ExportPlan {
  const q = parseListQuery(resource, raw, { paged: false });
  const columns = exportColumns(resource, raw.fields);
  const from = `FROM ${ident(resource.table)} ${q.where}`;
  const sql = `SELECT ${exportSelectColumns(resource, columns)} ${from} ${q.orderBy}`;
  return { columns, from, sql, params: q.params };
}

/** How many rows the export matches, counting at most `limit` (cheap on a big table). */
export async function countExport(db: Queryable, plan: ExportPlan, limit?: number): Promise<number> {
  const inner = limit === undefined ? `SELECT 1 ${plan.from}` : `SELECT 1 ${plan.from} LIMIT ${limit}`;
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM (${inner}) s`, plan.params);
  return Number(rows[0]!.n);
}

/**
 * `GET <endpoint>/export`: streams the list (current filters and sort, no row cap) as CSV: UTF-8 BOM, labelled
 * headers in the request's language, labels for enum/dictionary/boolean values, formula escaping. When more
 * rows match than `config.csvJobRows` and this server runs jobs, it answers 202 with a job instead (csv-jobs.ts
 * writes the same CSV to a file the requester downloads when the job is done).
 */
export async function exportCsv(
  ctx: OperationContext,
  raw: RawQuery,
  request: FastifyRequest,
  reply: FastifyReply,
  jobs?: CsvJobs,
) {
  const actor = await ctx.authorize('export');
  const plan = planExport(ctx.resource, raw);
  if (jobs?.isRunning() && (await countExport(ctx.db, plan, jobs.threshold + 1)) > jobs.threshold) {
    const ticket = await jobs.queueExport(ctx.resource, raw, actor, request.locale);
    return reply.code(202).send(ok(ticket));
  }
  const { csv, writers } = await startCsv(ctx, request, plan);
  void reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', attachment(exportFileName(ctx.resource)))
    .header('cache-control', 'no-store')
    .send(csv);
  try {
    await writeRows(ctx, plan, csv, writers, { mode: 'transaction' });
    csv.end();
  } catch (error) {
    request.log.error({ err: { type: (error as Error).name } }, 'export failed');
    csv.destroy(error as Error);
  }
  return reply;
}

/** A CSV stream with the BOM and the labelled header row written, and the cell writer of each column. */
export async function startCsv(
  ctx: Pick<OperationContext, 'db' | 'resource'>,
  lang: Lang,
  plan: ExportPlan,
): Promise<{ csv: Stringifier; writers: CellWriter[] }> {
  const writers = await cellWriters(ctx.db, lang, ctx.resource, plan.columns);
  const csv = stringify({ bom: true, writableHighWaterMark: BATCH, readableHighWaterMark: 1 << 20 });
  csv.write(plan.columns.map((c) => fieldLabel(lang, ctx.resource, c)));
  return { csv, writers };
}

/**
 * Writes the rows from a server-side cursor, batch by batch; each batch waits for the stream to drain, so
 * memory stays flat whatever the row count. `mode: 'transaction'` reads inside one transaction (on PGlite it
 * holds the only connection meanwhile); `'hold'` declares a WITH HOLD cursor and fetches outside any
 * transaction, so other queries (job progress) run between batches: PGlite's mode for jobs. Resolves to the
 * number of rows written; `onBatch` gets the running count.
 */
export async function writeRows(
  ctx: Pick<OperationContext, 'db' | 'resource' | 'registry'>,
  plan: ExportPlan,
  csv: Stringifier,
  writers: CellWriter[],
  { mode, onBatch }: { mode: 'transaction' | 'hold'; onBatch?: (done: number) => Promise<void> },
): Promise<number> {
  const { resource, registry } = ctx;
  const { columns } = plan;
  const hasLinks = fieldsOf(resource).some((f) => f.kind === 'references' && columns.includes(f.name));
  let done = 0;
  await eachBatch(ctx.db, plan, mode, async (q, rows) => {
    const records = hasLinks ? await loadRecords(q, resource, registry, rows) : (rows as WireRecord[]);
    for (const record of records) csv.write(columns.map((c, i) => writers[i]!(record[c])));
    done += rows.length;
    // Back-pressure once per batch: memory holds at most one batch beyond the stream's buffers.
    if (csv.writableNeedDrain) await drained(csv);
    await onBatch?.(done);
    return !csv.destroyed;
  });
  return done;
}

type BatchFn = (q: Queryable, rows: Record<string, unknown>[]) => Promise<boolean>;

async function eachBatch(db: Db, plan: ExportPlan, mode: 'transaction' | 'hold', fn: BatchFn) {
  const cursor = `engine_export_${crypto.randomBytes(6).toString('hex')}`;
  const loop = async (q: Queryable) => {
    for (;;) {
      const { rows } = await q.query(`FETCH ${BATCH} FROM ${cursor}`);
      if (rows.length === 0 || !(await fn(q, rows))) break;
    }
  };
  if (mode === 'transaction') {
    await db.transaction(async (tx) => {
      await tx.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${plan.sql}`, plan.params);
      await loop(tx);
      await tx.query(`CLOSE ${cursor}`);
    });
    return;
  }
  await db.query(`DECLARE ${cursor} NO SCROLL CURSOR WITH HOLD FOR ${plan.sql}`, plan.params);
  try {
    await loop(db);
  } finally {
    await db.query(`CLOSE ${cursor}`).catch(() => undefined);
  }
}

/** The exported columns: `fields=a,b` (readable fields only) or every readable field. */
function exportColumns(resource: Resource, fields: unknown): string[] {
  const readable = [
    'id',
    ...fieldsOf(resource)
      .filter((f) => !f.meta.writeOnly)
      .map((f) => f.name),
  ];
  if (resource.timestamps) readable.push('created_at', 'updated_at');
  const wanted =
    typeof fields === 'string' && fields.trim()
      ? fields
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : readable;
  for (const name of wanted) {
    if (!readable.includes(name))
      throw new AppError(422, 'engine.query.unknown_export_field', {
        params: { field: name.slice(0, 100) },
        fields: { [name.slice(0, 100)]: ['engine.query.unknown_export_field_short'] },
      });
  }
  return wanted;
}

/** RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name. */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `<resource>-YYYYMMDD-HHMMSS.csv` (UTC). */
export function exportFileName(resource: Resource): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${resource.name}-${stamp}.csv`;
}

/** Resolves when the stream drains or closes (client gone), without leaving listeners behind. */
function drained(csv: Stringifier): Promise<void> {
  if (csv.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      csv.off('drain', done);
      csv.off('close', done);
      resolve();
    };
    csv.on('drain', done);
    csv.on('close', done);
  });
}
