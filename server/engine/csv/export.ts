import crypto from 'node:crypto';
import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Resource } from '../../../resources/define.ts';
import { AppError } from '../../core/errors.ts';
import type { Principal } from '../../core/principal.ts';
import { rowScope, scopeList } from '../scope.ts';
import type { Db, Queryable } from '../../db/index.ts';
import { csvLine, exportQuery, type ExportQuery } from './format.ts';
import type { CsvQueue, JobTicket } from './queue.ts';
import { fieldsOf, ident } from '../schema/fields.ts';
import { hiddenFields } from '../field-access.ts';
import { hooksOf } from '../hooks.ts';
import { readableExportColumns } from '../list/include-access.ts';
import { fieldLabel, type Lang } from '../labels.ts';
import type { OperationContext } from '../context.ts';
import { openXlsxExport } from './xlsx-export.ts';
import { parseListQuery, type RawQuery, type SearchFilters } from '../list/query.ts';
import { listContext } from '../list/related.ts';

/** Rows fetched from the cursor per round trip (PGlite). */
const BATCH = 5000;

/** What an export reads: the list query (filters and sort, no paging) and the columns. */
export interface ExportPlan {
  columns: string[];
  /** `WHERE ...` or '', with $1..$n for `params`. */
  where: string;
  orderBy: string;
  params: unknown[];
  /** Who the file is for (references are named only as far as it may see them, format.ts). */
  viewer: Principal | undefined;
}

/**
 * Parses the export parameters (422 for unknown fields or conditions; a field the caller may not see is
 * unknown to it, field-access.ts). Columns that refer to records the
 * caller may not read are a 403 when `fields=` names them and are left out of the default set
 * (include-access.ts). The rows are those of the caller's data scope (scope.ts): a job plans again with the
 * principal it loads when it runs, so its scope is the requester's at that moment.
 */
export async function planExport(
  db: Queryable,
  resource: Resource,
  raw: RawQuery,
  access: {
    registry: readonly Resource[];
    principal: Principal | undefined;
    filters?: SearchFilters;
    /** The requester's language: text sorts in its collation (list/related.ts). */
    locale?: string;
  },
): Promise<ExportPlan> {
  const hidden = hiddenFields(access.principal, resource);
  const context = await listContext(db, { resource, ...access });
  const parsed = parseListQuery(resource, raw, { paged: false, filters: access.filters, hidden, context });
  const q = scopeList(resource, parsed, await rowScope(db, resource, access.principal));
  const isExplicit = typeof raw.fields === 'string' && raw.fields.trim() !== '';
  const columns = exportColumns(resource, raw.fields, hidden);
  return {
    columns: readableExportColumns(resource, access.registry, access.principal, columns, isExplicit),
    where: q.where,
    orderBy: q.orderBy,
    params: q.params,
    viewer: access.principal,
  };
}

/** How many rows the export matches, counting at most `limit` (cheap on a big table). */
export async function countExport(
  db: Queryable,
  resource: Resource,
  plan: ExportPlan,
  limit?: number,
): Promise<number> {
  const from = `FROM ${ident(resource.table)} ${plan.where}`;
  const inner = limit === undefined ? `SELECT 1 ${from}` : `SELECT 1 ${from} LIMIT ${limit}`;
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM (${inner}) s`, plan.params);
  return Number(rows[0]!.n);
}

/** What an export gives: the file to stream with its name and format, or the ticket of the job that writes it. */
export type ExportResult = { csv: CsvExport; name: string; format: ExportFormat } | { job: JobTicket };

/** The export's file format: `format=csv` (the default) or `format=xlsx` (csv/xlsx-export.ts). */
export type ExportFormat = 'csv' | 'xlsx';

/** `format=` of an export query: csv unless given; 422 for anything else. */
export function exportFormat(raw: RawQuery): ExportFormat {
  const format = raw.format ?? 'csv';
  if (format === 'csv' || format === 'xlsx') return format;
  throw new AppError(422, 'engine.csv.bad_format', { fields: { format: ['engine.csv.bad_format'] } });
}

/**
 * The export operation (`GET <endpoint>/export`, csv/routes.ts): the list (current filters and sort, no row
 * cap) as CSV: UTF-8 BOM, labelled headers in the caller's language, labels for enum/dictionary/boolean values,
 * formula escaping. When more rows match than `jobs.threshold` and this server runs jobs, a job is queued
 * instead (csv/jobs.ts writes the same CSV to a file the requester downloads when the job is done).
 */
export async function exportRecords(
  ctx: OperationContext,
  { query: raw, lang, jobs }: { query: RawQuery; lang: Lang; jobs?: CsvQueue },
): Promise<ExportResult> {
  const actor = await ctx.authorize('export');
  const format = exportFormat(raw);
  const filters = hooksOf(ctx.hooks, ctx.resource).filters;
  const plan = await planExport(ctx.db, ctx.resource, raw, {
    registry: ctx.registry,
    principal: actor.principal,
    filters,
    locale: lang.locale,
  });
  if (
    jobs?.isRunning() &&
    (await countExport(ctx.db, ctx.resource, plan, jobs.threshold + 1)) > jobs.threshold
  ) {
    // The job exports exactly the columns allowed now (and checks them again with the principal it loads).
    const query = { ...raw, fields: plan.columns.join(',') };
    return { job: await jobs.queueExport(ctx.resource, query, actor, lang.locale) };
  }
  const csv = format === 'xlsx' ? await openXlsxExport(ctx, lang, plan) : await openExport(ctx, lang, plan);
  return { csv, name: exportFileName(ctx.resource, format), format };
}

/** An export in progress: the CSV bytes, and the number of rows once the stream has ended. */
export interface CsvExport {
  stream: Readable;
  rows(): number;
}

/**
 * Opens the CSV of an export: BOM, the labelled header row, then the rows formatted by the database
 * (csv/format.ts), with back-pressure all the way, so memory stays flat whatever the row count.
 * On PostgreSQL the rows are a COPY stream; on PGlite they come from a cursor in batches (`cursorBatches`).
 * `onRows` gets a running row count (approximate on PostgreSQL: line ends seen).
 */
export async function openExport(
  ctx: Pick<OperationContext, 'db' | 'resource' | 'registry'>,
  lang: Lang,
  plan: ExportPlan,
  { onRows }: { onRows?: (done: number) => Promise<void> } = {},
): Promise<CsvExport> {
  const query = await exportQuery(ctx.db, lang, ctx.resource, plan, ctx.registry);
  const head = `\uFEFF${csvLine(plan.columns.map((c) => fieldLabel(lang, ctx.resource, c)))}`;
  if (ctx.db.copyOut) {
    const source = await ctx.db.copyOut(query.sql, query.params, query.settings);
    const stream = new PassThrough({ highWaterMark: 1 << 20 });
    stream.write(head);
    const steps: NodeJS.ReadWriteStream[] = onRows ? [lineCounter(onRows)] : [];
    pipeline([source, ...steps, stream]).catch(() => undefined);
    return { stream, rows: () => source.rowCount };
  }
  let rows = 0;
  const generate = async function* () {
    yield head;
    for await (const batch of cursorBatches(ctx.db, query)) {
      let text = '';
      for (const row of batch) text += csvLine(Object.values(row) as (string | null)[]);
      rows += batch.length;
      yield text;
      await onRows?.(rows);
    }
  };
  return { stream: Readable.from(generate(), { objectMode: false }), rows: () => rows };
}

/** A pass-through that reports line ends seen (rows, but for line breaks inside quoted cells), at most 2/s. */
function lineCounter(onRows: (done: number) => Promise<void>): Transform {
  let lines = 0;
  let last = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      const now = Date.now();
      if (now - last < 500) return callback(null, chunk);
      last = now;
      onRows(lines).then(
        () => callback(null, chunk),
        (error: Error) => callback(error),
      );
    },
  });
}

/**
 * The rows of `query` in batches from a server-side cursor (PGlite). The export settings and the cursor are
 * declared in one transaction; the WITH HOLD cursor's rows are materialized when it commits and fetched with
 * no transaction open, so PGlite's only connection serves other requests between batches, however slowly the
 * client reads. Abandoning the iterator closes the cursor.
 */
async function* cursorBatches(db: Db, query: ExportQuery): AsyncGenerator<Record<string, unknown>[]> {
  const cursor = `engine_export_${crypto.randomBytes(6).toString('hex')}`;
  const names = Object.keys(query.settings);
  const settings = `SELECT ${names.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`;
  await db.transaction(async (tx) => {
    await tx.query(settings, Object.entries(query.settings).flat());
    await tx.query(`DECLARE ${cursor} NO SCROLL CURSOR WITH HOLD FOR ${query.sql}`, query.params);
  });
  try {
    for (;;) {
      const { rows } = await db.query(`FETCH ${BATCH} FROM ${cursor}`);
      if (rows.length === 0) return;
      yield rows;
    }
  } finally {
    await db.query(`CLOSE ${cursor}`).catch(() => undefined);
  }
}

/** The exported columns: `fields=a,b` (readable fields only) or every readable field. */
function exportColumns(resource: Resource, fields: unknown, hidden: ReadonlySet<string>): string[] {
  const readable = [
    'id',
    ...fieldsOf(resource)
      // A computed field exports when the database computes it (`sql`); a function's value is not in a row.
      .filter((f) => !f.meta.writeOnly && !hidden.has(f.name) && f.meta.computed?.by !== 'value')
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

/** `<resource>-YYYYMMDD-HHMMSS.<csv|xlsx>` (UTC). */
export function exportFileName(resource: Resource, format: ExportFormat = 'csv'): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${resource.name}-${stamp}.${format}`;
}
