import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import { parseListQuery, type RawQuery, type SearchFilters, type SortKey } from '../list/query.ts';
import { keysColumn, keysetPredicate, keysOf } from '../list/keyset.ts';
import type { CopyOutStream } from '../../db/types.ts';
import { listContext } from '../list/related.ts';

/** Rows fetched from the cursor per round trip (PGlite). */
const BATCH = 5000;

/** What an export reads: the list query (filters and sort, no paging) and the columns. */
export interface ExportPlan {
  columns: string[];
  /** `WHERE ...` or '', with $1..$n for `params`. */
  where: string;
  orderBy: string;
  /** The same order as sort keys, the id last (keyset.ts): a parted export splits the rows by them. */
  order: SortKey[];
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
    order: q.order,
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
  /** How many COPYs wrote it, when it was written in parts (openPartedExport). */
  parts?: number;
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
  {
    onRows,
    parts,
  }: {
    onRows?: (done: number) => Promise<void>;
    /** PostgreSQL: the COPY in `count` parts of about `total` / `count` rows each (openPartedExport). */
    parts?: { count: number; total: number };
  } = {},
): Promise<CsvExport> {
  const head = `\uFEFF${csvLine(plan.columns.map((c) => fieldLabel(lang, ctx.resource, c)))}`;
  if (ctx.db.copyOut && parts && parts.count > 1 && partedExports < MAX_PARTED_EXPORTS) {
    partedExports++;
    let isDone = false;
    const done = () => {
      if (!isDone) partedExports--;
      isDone = true;
    };
    let source: CsvExport;
    try {
      source = await openPartedExport(ctx, lang, plan, parts, done);
    } catch (error) {
      done();
      throw error;
    }
    const stream = new PassThrough({ highWaterMark: 1 << 20 });
    stream.write(head);
    const steps: NodeJS.ReadWriteStream[] = onRows ? [lineCounter(onRows)] : [];
    pipeline([source.stream, ...steps, stream]).catch(() => undefined);
    return { stream, rows: source.rows, parts: source.parts };
  }
  const query = await exportQuery(ctx.db, lang, ctx.resource, plan, ctx.registry);
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

/**
 * Parted exports running in this process. One at a time: each holds K + 1 pool connections at once, and
 * several waiting for the pool together could wait for each other; the others run as one COPY.
 */
const MAX_PARTED_EXPORTS = 1;
let partedExports = 0;

/**
 * An export's COPY in parts on PostgreSQL (issue 37 item 1, pg_dump's technique), so the SQL side uses more
 * than one core: one REPEATABLE READ transaction exports its snapshot and finds, in it, the sort keys of
 * the rows at 1/K, 2/K, ... of the ordered result; K COPYs on K connections import that snapshot and each
 * reads the rows from its start key (inclusive) to the next one's (exclusive), with the same SELECT, filters,
 * scope and order. Part 1 streams on at once; the others are spilled to temporary files as they arrive and
 * follow it in order, so the bytes are exactly those of the single COPY, memory stays flat, and rows written
 * meanwhile appear in no part. The caller decides from how many rows (csv/jobs.ts, CSV_EXPORT_PARTS, off by
 * default, and CSV_EXPORT_PART_ROWS).
 * Any part's failure destroys the stream (and so fails the job); the temporary files go when it closes.
 */
async function openPartedExport(
  ctx: Pick<OperationContext, 'db' | 'resource' | 'registry'>,
  lang: Lang,
  plan: ExportPlan,
  parts: { count: number; total: number },
  /** Called once when the parts are done with (read, failed or abandoned). */
  done: () => void,
): Promise<CsvExport> {
  const { db, resource } = ctx;
  const table = ident(resource.table);
  const sources: CopyOutStream[] = [];
  const destroyAll = (error?: Error) => {
    for (const source of sources) if (!source.destroyed) source.destroy(error);
  };
  try {
    await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const snapshot = (await tx.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]!.id;
      // The caller's count (taken a moment earlier) only places the bounds: a key read in this snapshot is a
      // bound whatever the count, and a bound past the last row means one part less.
      const { total } = parts;
      const k = Math.max(1, Math.min(parts.count, total));
      const bounds: (string | null)[][] = [];
      for (let i = 1; i < k; i++) {
        const { rows } = await tx.query(
          `SELECT ${keysColumn(plan.order)} FROM ${table} ${plan.where} ${plan.orderBy} OFFSET ${Math.floor((total * i) / k)} LIMIT 1`,
          plan.params,
        );
        if (rows[0]) bounds.push(keysOf(rows[0]));
      }
      for (let i = 0; i <= bounds.length; i++) {
        const part = rangePlan(resource, plan, bounds[i - 1] ?? null, bounds[i] ?? null);
        const query = await exportQuery(db, lang, resource, part, ctx.registry);
        // Each COPY imports the snapshot while this transaction still holds it open.
        sources.push(await db.copyOut!(query.sql, query.params, query.settings, { snapshot }));
      }
    });
  } catch (error) {
    destroyAll();
    throw error;
  }
  let dir: string | null = null;
  const spills: { file: string; done: Promise<void> }[] = [];
  if (sources.length > 1) {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'export-parts-')).catch((error: Error) => {
      destroyAll();
      throw error;
    });
    for (const [i, source] of sources.slice(1).entries()) {
      const file = path.join(dir, `${i + 1}.csv`);
      spills.push({ file, done: pipeline(source, fs.createWriteStream(file)) });
    }
  }
  const cleanUp = () => {
    destroyAll();
    if (dir) fs.promises.rm(dir, { recursive: true, force: true }).catch(() => undefined);
    dir = null;
    done();
  };
  async function* assemble() {
    try {
      yield* sources[0]!;
      for (const spill of spills) {
        await spill.done;
        yield* fs.createReadStream(spill.file);
      }
    } finally {
      cleanUp();
    }
  }
  const stream = Readable.from(assemble(), { objectMode: false });
  // A part that fails while an earlier one still streams ends the export at once (the job fails).
  for (const spill of spills) spill.done.catch((error: Error) => stream.destroy(error));
  stream.on('close', cleanUp);
  return {
    stream,
    rows: () => sources.reduce((n, source) => n + source.rowCount, 0),
    parts: sources.length,
  };
}

/** `plan` narrowed to the rows from sort keys `from` on (inclusive) and before `to` (null: no bound). */
function rangePlan(
  resource: Resource,
  plan: ExportPlan,
  from: readonly (string | null)[] | null,
  to: readonly (string | null)[] | null,
): ExportPlan {
  const params = [...plan.params];
  const bind = (value: unknown) => `$${params.push(value)}`;
  const terms = plan.where ? [`(${plan.where.replace(/^WHERE /, '')})`] : [];
  if (from) terms.push(`(${keysetPredicate(resource, plan.order, from, bind, true)})`);
  // IS NOT TRUE: a comparison with a NULL key is NULL, which belongs to no part under NOT.
  if (to) terms.push(`(${keysetPredicate(resource, plan.order, to, bind, true)}) IS NOT TRUE`);
  return { ...plan, where: terms.length ? `WHERE ${terms.join(' AND ')}` : '', params };
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
