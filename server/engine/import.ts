import { parse } from 'csv-parse';
import type { FastifyRequest } from 'fastify';
import { fieldErrors, issueKey } from '../../schemas/messages.ts';
import { AppError } from '../core/errors.ts';
import { columnReaders, rowInput } from './csv-parse-row.ts';
import { fieldByName, fieldsOf, ident } from './fields.ts';
import { insertRecord, patchRecord, type OperationContext } from './operations.ts';
import type { RawQuery } from './query.ts';
import { withoutSystemKeys, writeSchemas } from './schemas.ts';

export const DEFAULT_MAX_IMPORT_ROWS = 100_000;

export interface ImportReport {
  total: number;
  valid: number;
  errors: { row: number; errors: Record<string, string[]> }[];
  created: number;
  updated: number;
  dry_run: boolean;
}

interface PlannedRow {
  row: number;
  data: Record<string, unknown>;
  /** Set when `upsert` matched an existing record. */
  existingId: string | null;
}

/**
 * CSV import: every row is validated with the resource's own zod schema (create, or partial update when
 * `upsert=<unique field>` matches an existing record), unique values are checked against the table and
 * the file. `dry_run=1` reports and writes nothing; a real run writes everything in one transaction (with
 * an audit row per record) or nothing at all. Rows are numbered as lines of the file (the header is 1).
 */
export async function importCsv(
  ctx: OperationContext,
  raw: RawQuery,
  request: FastifyRequest,
): Promise<ImportReport> {
  const actor = await ctx.authorize('import');
  const { resource, db } = ctx;
  const isDryRun = raw.dry_run === '1' || raw.dry_run === 'true';
  const upsert = typeof raw.upsert === 'string' && raw.upsert ? raw.upsert : null;
  if (upsert && upsert !== 'id' && !fieldByName(resource, upsert)?.meta.unique)
    throw new AppError(422, 'engine.csv.bad_upsert', {
      params: { field: upsert.slice(0, 100) },
      fields: { upsert: ['engine.csv.bad_upsert_short'] },
    });
  const max = resource.options.limits?.maxImportRows ?? DEFAULT_MAX_IMPORT_ROWS;
  const [header, ...rows] = await readCsv(request, max);
  if (!header) throw AppError.validation({ file: ['engine.csv.empty'] });
  const { readers, unknown } = await columnReaders(db, request, resource, header, upsert === 'id');
  if (unknown.length)
    throw new AppError(422, 'engine.csv.unknown_column_named', {
      params: { field: unknown[0]!.slice(0, 100) },
      fields: Object.fromEntries(unknown.map((u) => [u.slice(0, 100), ['engine.csv.unknown_column']])),
    });

  const t = (key: string, params: Record<string, unknown>) => request.t(key, params);
  const inputs = rows.map((cells) => rowInput(readers, cells));
  const existing = upsert
    ? await findExisting(
        ctx,
        upsert,
        inputs.map((i) => i[upsert]),
      )
    : new Map<string, string>();
  const errors: ImportReport['errors'] = [];
  const planned: PlannedRow[] = [];
  inputs.forEach((input, i) => {
    const row = i + 2;
    const key = upsert ? input[upsert] : undefined;
    const existingId = key !== undefined ? (existing.get(String(key)) ?? null) : null;
    const body = withoutSystemKeys(input) as Record<string, unknown>;
    const schemas = writeSchemas(resource);
    const result = (existingId ? schemas.update : schemas.create).safeParse(body, {
      error: (iss) => issueKey(iss),
    });
    if (!result.success) errors.push({ row, errors: fieldErrors(result.error, t) });
    else planned.push({ row, data: result.data as Record<string, unknown>, existingId });
  });
  for (const u of await uniqueErrors(ctx, planned, request)) {
    const same = errors.find((e) => e.row === u.row);
    if (same) Object.assign(same.errors, u.errors);
    else errors.push(u);
  }
  errors.sort((a, b) => a.row - b.row);
  const report: ImportReport = {
    total: rows.length,
    valid: rows.length - errors.length,
    errors,
    created: 0,
    updated: 0,
    dry_run: isDryRun,
  };
  if (isDryRun) return report;
  if (errors.length) {
    const fields: Record<string, string[]> = {};
    for (const e of errors)
      for (const [f, msgs] of Object.entries(e.errors)) fields[`rows.${e.row}.${f}`] = msgs;
    // Already translated; the error handler passes texts that are not message keys through unchanged.
    throw new AppError(422, 'engine.csv.invalid_rows', { fields });
  }
  await db.transaction(async (tx) => {
    for (const p of planned) {
      if (p.existingId) {
        await patchRecord(ctx, tx, p.existingId, p.data, actor);
        report.updated++;
      } else {
        await insertRecord(ctx, tx, p.data, actor);
        report.created++;
      }
    }
  });
  return report;
}

async function readCsv(request: FastifyRequest, max: number): Promise<string[][]> {
  let file;
  try {
    file = await request.file();
  } catch {
    file = undefined;
  }
  if (!file) throw AppError.validation({ file: ['engine.csv.file_required'] });
  const rows: string[][] = [];
  const parser = file.file.pipe(
    parse({ bom: true, skip_empty_lines: true, relax_column_count: true, max_record_size: 1 << 20 }),
  );
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      rows.push(record);
      if (rows.length > max + 1) {
        file.file.resume();
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
  if (file.file.truncated) throw new AppError(413, 'errors.payload_too_large');
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
  for (let i = 0; i < wanted.length; i += 1000) {
    const chunk = wanted.slice(i, i + 1000);
    const { rows } = await ctx.db.query<{ id: string; v: string }>(
      `SELECT "id", ${ident(field)}::text AS v FROM ${ident(ctx.resource.table)} WHERE ${ident(field)}::text IN (${chunk.map((_, j) => `$${j + 1}`).join(', ')})`,
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
  request: FastifyRequest,
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
      if (isTaken) errors.push({ row: p.row, errors: { [f.name]: [request.t('validation.unique')] } });
    }
  }
  return errors;
}
