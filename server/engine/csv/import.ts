import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Resource } from '../../../resources/define.ts';
import { decodeMessage, fieldErrors, issueKey } from '../../../schemas/messages.ts';
import { AppError } from '../../core/errors.ts';
import { ZodAppError } from '../../core/validate.ts';
import type { Queryable } from '../../db/index.ts';
import { diffChanges } from '../write/audit.ts';
import type { Actor } from '../write/audit.ts';
import type { CsvQueue, ImportOptions, JobTicket } from './queue.ts';
import { holdsUnsafeText } from '../../../resources/fields.ts';
import { columnReaders, idColumn, rowInput } from './parse-row.ts';
import { resolveReferences } from './references.ts';
import { applyMapping, isZip, readXlsx } from './xlsx-import.ts';
import { fieldByName, fieldsOf, ident } from '../schema/fields.ts';
import type { Lang } from '../labels.ts';
import type { OperationContext } from '../context.ts';
import { fieldForbidden, restrictedFields } from '../field-access.ts';
import { publishManyChanged } from '../write/record-events.ts';
import { startOperation } from '../undo.ts';
import { fetchRecord, insertRecord, patchRecord } from '../write/record-writes.ts';
import { liveSql } from '../scope.ts';
import { idsInScope, isInScope, rowScope, scopeColumnsOf, UNRESTRICTED } from '../scope.ts';
import type { RawQuery } from '../list/query.ts';
import { withoutSystemKeys, withRules, writeSchemas } from '../../../resources/write.ts';

const DEFAULT_MAX_IMPORT_ROWS = 100_000;

export interface ImportReport {
  total: number;
  valid: number;
  errors: { row: number; errors: Record<string, string[]> }[];
  created: number;
  updated: number;
  /** Rows matching a record whose values they would not change: left alone (no write, no audit row). */
  unchanged: number;
  dry_run: boolean;
  /**
   * The committed import as an operation to undo (undo.ts): the HTTP answer moves it into `meta` (csv/routes.ts);
   * a job's output keeps it.
   */
  operation_id?: string;
}

interface PlannedRow {
  row: number;
  data: Record<string, unknown>;
  /** Set when `upsert` matched an existing record. */
  existingId: string | null;
}

/** Progress callbacks of a run: after every row is checked, and while rows are written (inside the transaction). */
export interface ImportHooks {
  checked?(total: number): Promise<void>;
  written?(done: number, total: number): Promise<void>;
}

/**
 * The uploaded file as the HTTP side hands it over (csv/routes.ts): its bytes, `truncated` once they went over
 * the upload limit; undefined when the request carries no file.
 */
export type CsvUpload = () => Promise<
  | (Readable & { truncated?: boolean; /** The `mapping` part (csv/xlsx-import.ts). */ mapping?: string })
  | undefined
>;

/**
 * The import operation (`POST <endpoint>/import`, csv/routes.ts): every row is validated with the resource's
 * own zod schema (create, or partial update when `upsert=<unique field>` matches an existing record), unique
 * values are checked against the table and the file. Then every valid row goes through the write path (hooks
 * included), each under a savepoint, in one transaction: a real run without an error commits it (an audit row
 * per record written), `dry_run=1` or any error rolls it back, so the dry run finds what the import would
 * refuse and every error names its row. A row matching a record it would not change is left alone and
 * counted as `unchanged`. Rows are numbered as lines
 * of the file (the header is 1). A file of more rows than `jobs.threshold` goes to a background job
 * (csv/jobs.ts) when this server runs jobs: the answer is then a `JobTicket` and the report becomes the job's
 * output.
 */
export async function importRecords(
  ctx: OperationContext,
  { query: raw, upload, lang, jobs }: { query: RawQuery; upload: CsvUpload; lang: Lang; jobs?: CsvQueue },
): Promise<ImportReport | JobTicket> {
  const actor = await ctx.authorize('import');
  const options = importOptions(ctx.resource, raw);
  const max = ctx.resource.options.limits?.maxImportRows ?? DEFAULT_MAX_IMPORT_ROWS;
  const file = await upload();
  const rows = applyMapping(await readUpload(file, max), file?.mapping);
  if (jobs?.isRunning() && rows.length - 1 > jobs.threshold) {
    await checkHeader(ctx, actor, lang, rows[0] ?? [], upsertOf(ctx.resource, rows[0] ?? [], options.upsert));
    return jobs.queueImport(ctx.resource, rows, options, actor, lang.locale);
  }
  const report = await runImport(ctx, actor, lang, rows, options);
  if (!report.dry_run && report.errors.length) {
    const fields: Record<string, string[]> = {};
    for (const e of report.errors)
      for (const [f, msgs] of Object.entries(e.errors)) fields[`rows.${e.row}.${f}`] = msgs;
    // Already translated; the error handler passes texts that are not message keys through unchanged.
    throw new AppError(422, 'engine.csv.invalid_rows', { fields });
  }
  return report;
}

/** `dry_run` and `upsert` from the query (422 when `upsert` names a field that is not unique). */
function importOptions(resource: Resource, raw: RawQuery): ImportOptions {
  const dryRun = raw.dry_run === '1' || raw.dry_run === 'true';
  const upsert = typeof raw.upsert === 'string' && raw.upsert ? raw.upsert : null;
  if (upsert && upsert !== 'id' && !fieldByName(resource, upsert)?.meta.unique)
    throw new AppError(422, 'engine.csv.bad_upsert', {
      params: { field: upsert.slice(0, 100) },
      fields: { upsert: ['engine.csv.bad_upsert_short'] },
    });
  return { dryRun, upsert };
}

/**
 * The field that matches rows to existing records: `upsert` when given, else `id` when the file has an ID
 * column (the product's own export), else none.
 */
function upsertOf(resource: Resource, header: string[], upsert: string | null): string | null {
  return upsert ?? (idColumn(resource, header) ? 'id' : null);
}

/**
 * The column readers of a header row; 422 when it is empty or a column matches no field, 403 naming the
 * columns of fields the caller may not write (hidden or read-only, field-access.ts): before any row is read,
 * so neither a dry run nor a job gets further.
 */
async function checkHeader(
  ctx: OperationContext,
  actor: Actor,
  lang: Lang,
  header: string[],
  upsert: string | null,
) {
  if (!header.length) throw AppError.validation({ file: ['engine.csv.empty'] });
  const { readers, unknown } = await columnReaders(ctx, lang, header, upsert === 'id');
  const restricted = restrictedFields(actor.principal, ctx.resource);
  const denied = [...new Set(readers.flatMap((r) => (r.field && restricted.has(r.field) ? [r.field] : [])))];
  if (denied.length) throw fieldForbidden(denied);
  if (unknown.length)
    throw new AppError(422, 'engine.csv.unknown_column_named', {
      params: { field: unknown[0]!.slice(0, 100) },
      fields: Object.fromEntries(unknown.map((u) => [u.slice(0, 100), ['engine.csv.unknown_column']])),
    });
  return readers;
}

/**
 * Checks every row of a parsed file (`[header, ...rows]`) and, unless it is a dry run or a row is invalid,
 * writes them all in one transaction. Messages are in `lang` (a request, or `langOf(locale)` in a job).
 * The report lists the row errors; nothing is written when there are any.
 */
export async function runImport(
  ctx: OperationContext,
  actor: Actor,
  lang: Lang,
  [header, ...rows]: string[][],
  options: ImportOptions,
  hooks: ImportHooks = {},
): Promise<ImportReport> {
  const { resource, db } = ctx;
  const { dryRun } = options;
  const upsert = upsertOf(resource, header ?? [], options.upsert);
  const readers = await checkHeader(ctx, actor, lang, header ?? [], upsert);
  const t = (key: string, params: Record<string, unknown>) => lang.t(key, params);
  const inputs = rows.map((cells) => rowInput(readers, cells));
  const existing = upsert
    ? await findExisting(
        ctx,
        upsert,
        // A key the write schema will refuse (NUL, broken Unicode) is never looked up.
        inputs.map((i) => i[upsert]).filter((v) => !holdsUnsafeText(v)),
      )
    : new Map<string, string>();
  const errors: ImportReport['errors'] = [];
  const planned: PlannedRow[] = [];
  const own = writeSchemas(resource);
  const schemas = { create: withRules(resource, own.create), update: withRules(resource, own.update) };
  const existingIds = inputs.map((input) => {
    const key = upsert ? input[upsert] : undefined;
    return key !== undefined ? (existing.get(String(key)) ?? null) : null;
  });
  const referenceErrors = await resolveReferences(ctx, actor.principal, lang, inputs, existingIds);
  inputs.forEach((input, i) => {
    const row = i + 2;
    const existingId = existingIds[i]!;
    const body = withoutSystemKeys(input) as Record<string, unknown>;
    const result = (existingId ? schemas.update : schemas.create).safeParse(body, {
      error: (iss) => issueKey(iss),
    });
    const refs = referenceErrors[i];
    if (!result.success || refs)
      errors.push({ row, errors: { ...(result.success ? {} : fieldErrors(result.error, t)), ...refs } });
    else planned.push({ row, data: result.data as Record<string, unknown>, existingId });
  });
  for (const u of await scopeErrors(ctx, actor, lang, planned, upsert)) errors.push(u);
  for (const u of await uniqueErrors(ctx, planned, lang)) {
    const same = errors.find((e) => e.row === u.row);
    if (same) Object.assign(same.errors, u.errors);
    else errors.push(u);
  }
  const report: ImportReport = {
    total: rows.length,
    valid: 0,
    errors,
    created: 0,
    updated: 0,
    unchanged: 0,
    dry_run: dryRun,
  };
  await hooks.checked?.(rows.length);
  // A row already refused (a value taken by another row or record) is not written.
  const refused = new Set(errors.map((e) => e.row));
  const writable = planned.filter((p) => !refused.has(p.row));
  const every = Math.max(1, Math.ceil(writable.length / 50));
  const counts = { created: 0, updated: 0, unchanged: 0 };
  const updatedIds: string[] = [];
  const rollBack = new Error('import rolled back');
  let operationId: string | undefined;
  const committed =
    writable.length > 0 &&
    (await db
      .transaction(async (tx) => {
        // Recorded as an operation (undo.ts); a dry run's goes with its rollback.
        const opActor = await startOperation(tx, { kind: 'import', resource, actor });
        for (const [i, p] of writable.entries()) {
          // A refused row (a hook's AppError, a constraint) is named and the others still run.
          await tx.query('SAVEPOINT import_row');
          try {
            await writeRow(ctx, tx, opActor, p, counts, updatedIds);
            await tx.query('RELEASE SAVEPOINT import_row');
          } catch (error) {
            // A 5xx (the database gone, a full disk) is no fault of the row: the import fails as a whole.
            if (!(error instanceof AppError) || error.status >= 500) throw error;
            await tx.query('ROLLBACK TO SAVEPOINT import_row');
            errors.push({ row: p.row, errors: rowErrorsOf(error, lang) });
          }
          if ((i + 1) % every === 0) await hooks.written?.(i + 1, writable.length);
        }
        if (dryRun || errors.length) throw rollBack;
        operationId = opActor.operationId;
        return true;
      })
      .catch((error: unknown) => {
        if (error === rollBack) return false;
        throw error;
      }));
  errors.sort((a, b) => a.row - b.row);
  report.valid = rows.length - errors.length;
  // A dry run reports what the import would do with the rows that passed; a refused import, nothing.
  if (dryRun) Object.assign(report, counts);
  if (!committed) return report;
  Object.assign(report, counts);
  if (operationId) report.operation_id = operationId;
  // One live event per committed import, not one per row; edit pages of updated records warn.
  if (counts.created + counts.updated > 0)
    await publishManyChanged(db, { resource, action: 'import', ids: updatedIds, actor });
  return report;
}

/** One planned row through the write path; a match whose values it would not change is left alone. */
async function writeRow(
  ctx: OperationContext,
  tx: Queryable,
  actor: Actor,
  p: PlannedRow,
  counts: { created: number; updated: number; unchanged: number },
  updatedIds: string[],
): Promise<void> {
  if (!p.existingId) {
    await insertRecord(ctx, { tx, data: p.data, actor });
    counts.created++;
    return;
  }
  // scopeErrors already kept rows out of the caller's scope away; `before` is what the caller sees.
  const before = await fetchRecord(ctx, {
    db: tx,
    id: p.existingId,
    scope: UNRESTRICTED,
    viewer: actor.principal,
  });
  const data = keepWrittenTimes(ctx.resource, before, p.data);
  if (isUnchanged(ctx.resource, before, data)) {
    counts.unchanged++;
    return;
  }
  await patchRecord(ctx, { tx, id: p.existingId, data, actor });
  updatedIds.push(p.existingId);
  counts.updated++;
}

/**
 * `data` with each time the file wrote at a coarser precision than the record holds replaced by the record's
 * own value when they agree at the file's precision: an export writes seconds (schemas/timeFormat.ts), so
 * `09:05:07` read back from a record at `09:05:07.123` is no change, and writing another field of the row
 * must not cut the milliseconds off this one.
 */
function keepWrittenTimes(
  resource: Resource,
  before: Record<string, unknown>,
  data: Record<string, unknown>,
) {
  let out = data;
  for (const [name, next] of Object.entries(data)) {
    const old = before[name];
    if (fieldByName(resource, name)?.kind !== 'datetime' || typeof next !== 'string' || old == null) continue;
    const written = /:\d{2}(?:\.(\d+))?Z$/.exec(next);
    if (!written) continue;
    const step = 10 ** Math.max(0, 3 - (written[1]?.length ?? 0));
    const [a, b] = [Date.parse(String(old)), Date.parse(next)];
    if (Number.isNaN(a) || Number.isNaN(b) || Math.floor(a / step) !== Math.floor(b / step)) continue;
    if (out === data) out = { ...data };
    out[name] = old;
  }
  return out;
}

/**
 * True when writing `data` would change nothing the record shows: the audit's own comparison, where an
 * instant read back from the file at the export's precision (microseconds) equals the record's (milliseconds
 * on the wire) when they name the same millisecond, and a many-to-many list equals the same ids in any order.
 */
function isUnchanged(resource: Resource, before: Record<string, unknown>, data: Record<string, unknown>) {
  const changes = diffChanges(resource, before, { ...before, ...data });
  return Object.entries(changes).every(([name, [old, next]]) => {
    const kind = fieldByName(resource, name)?.kind;
    if (old === null || next === null) return false;
    // A many-to-many list is a set: the file names it in its own order.
    if (kind === 'references' && Array.isArray(old) && Array.isArray(next))
      return JSON.stringify(old.map(String).sort()) === JSON.stringify(next.map(String).sort());
    if (kind !== 'datetime') return false;
    const [a, b] = [Date.parse(String(old)), Date.parse(String(next))];
    return !Number.isNaN(a) && a === b;
  });
}

/** An error the write path raised for one row, as the row's field -> messages (`_`: the row as a whole). */
function rowErrorsOf(error: AppError, lang: Lang): Record<string, string[]> {
  const t = (message: string) => {
    const { key, params } = decodeMessage(message);
    return lang.t(key, { ...error.params, ...params });
  };
  if (error instanceof ZodAppError) return fieldErrors(error.zod, (key, params) => lang.t(key, params));
  const out: Record<string, string[]> = {};
  for (const [field, keys] of Object.entries(error.fields ?? {})) out[field] = keys.map(t);
  for (const [field, values] of Object.entries(error.literal ?? {}))
    (out[field] ??= []).push(...(typeof values === 'number' ? [String(values)] : values));
  if (Object.keys(out).length === 0) out._ = [lang.t(error.key, error.params)];
  return out;
}

/**
 * Rows outside the caller's data scope (scope.ts), each named: a row matching a record the caller cannot
 * see (on the `upsert` field: the same answer whether it is out of scope or elsewhere), and a new row that
 * would put its record outside the scope (on the department field). Such rows leave the `planned` list.
 */
async function scopeErrors(
  ctx: OperationContext,
  actor: Actor,
  lang: Lang,
  planned: PlannedRow[],
  upsert: string | null,
): Promise<ImportReport['errors']> {
  const { db, resource } = ctx;
  const scope = await rowScope(db, resource, actor.principal);
  if (scope.all) return [];
  const visible = await idsInScope(
    db,
    resource,
    scope,
    planned.flatMap((p) => p.existingId ?? []),
  );
  const department = scopeColumnsOf(resource)?.department;
  const errors: ImportReport['errors'] = [];
  for (const p of planned) {
    if (
      p.existingId
        ? visible.has(p.existingId)
        : isInScope(resource, scope, { ...p.data, created_by: actor.userId })
    )
      continue;
    const field = p.existingId ? (upsert ?? 'id') : (department ?? 'id');
    const key = p.existingId ? 'engine.scope.row_out_of_scope' : 'engine.scope.out_of_scope_short';
    errors.push({ row: p.row, errors: { [field]: [lang.t(key)] } });
  }
  const failed = new Set(errors.map((e) => e.row));
  planned.splice(0, planned.length, ...planned.filter((p) => !failed.has(p.row)));
  return errors;
}

/** The upload's rows: an .xlsx (told by its zip signature, csv/xlsx-import.ts) or a CSV. */
async function readUpload(
  file: (Readable & { truncated?: boolean }) | undefined,
  max: number,
): Promise<string[][]> {
  if (!file) throw AppError.validation({ file: ['engine.csv.file_required'] });
  const head = await peek(file);
  if (!head || !isZip(head)) return readCsv(file, max);
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  if (file.truncated) throw new AppError(413, 'errors.payload_too_large');
  return readXlsx(Buffer.concat(chunks), max);
}

/** The stream's first chunk, left in the stream; null when it is empty. */
async function peek(stream: Readable): Promise<Buffer | null> {
  for (;;) {
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      stream.unshift(chunk);
      return chunk;
    }
    if (stream.readableEnded || stream.destroyed) return null;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('readable', done).off('end', done).off('error', fail);
        resolve();
      };
      const fail = (error: Error) => {
        stream.off('readable', done).off('end', done);
        reject(error);
      };
      stream.once('readable', done).once('end', done).once('error', fail);
    });
  }
}

async function readCsv(file: Readable & { truncated?: boolean }, max: number): Promise<string[][]> {
  const rows: string[][] = [];
  const parser = file.pipe(
    parse({ bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: 1 << 20 }),
  );
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rows.push(record);
      if (rows.length > max + 1) {
        file.resume();
        throw new AppError(422, 'engine.csv.too_many_rows', {
          params: { max },
          fields: { file: ['engine.csv.too_many_rows'] },
        });
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw error;
    throw AppError.validation({ file: ['engine.csv.not_csv'] });
  }
  if (file.truncated) throw new AppError(413, 'errors.payload_too_large');
  return rows;
}

/** upsert value -> existing id, looked up in chunks. */
async function findExisting(
  ctx: OperationContext,
  field: string,
  values: unknown[],
): Promise<Map<string, string>> {
  const wanted = [...new Set(values.filter((v) => v !== undefined && v !== null).map(String))];
  const out = new Map<string, string>();
  // Live records only: a row matching a trashed one is a new record, whose unique values then collide with
  // the trashed one's (the row's error says it is in the trash).
  const live = liveSql(ctx.resource);
  for (let i = 0; i < wanted.length; i += 1000) {
    const chunk = wanted.slice(i, i + 1000);
    const { rows } = await ctx.db.query<{ id: string; v: string }>(
      `SELECT "id", ${ident(field)}::text AS v FROM ${ident(ctx.resource.table)} WHERE ${ident(field)}::text IN (${chunk.map((_, j) => `$${j + 1}`).join(', ')})${live ? ` AND ${live}` : ''}`,
      chunk,
    );
    for (const r of rows) out.set(String(r.v), String(r.id));
  }
  return out;
}

/** 409-style errors for unique values taken by another record or repeated within the file. */
async function uniqueErrors(
  ctx: OperationContext,
  planned: PlannedRow[],
  lang: Lang,
): Promise<ImportReport['errors']> {
  const errors: ImportReport['errors'] = [];
  for (const f of fieldsOf(ctx.resource).filter((x) => x.meta.unique)) {
    const taken = await findExisting(
      ctx,
      f.name,
      planned.map((p) => p.data[f.name]),
    );
    const seen = new Set<string>();
    for (const p of planned) {
      const value = p.data[f.name];
      if (value === undefined || value === null) continue;
      const owner = taken.get(String(value));
      const isTaken = (owner !== undefined && owner !== p.existingId) || seen.has(String(value));
      seen.add(String(value));
      if (isTaken) errors.push({ row: p.row, errors: { [f.name]: [lang.t('validation.unique')] } });
    }
  }
  return errors;
}
