import { stringify, type Stringifier } from 'csv-stringify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Resource } from '../../resources/define.ts';
import { AppError } from '../core/errors.ts';
import { cellWriters } from './csv-format.ts';
import { fieldsOf, ident } from './fields.ts';
import { fieldLabel } from './labels.ts';
import type { OperationContext } from './operations.ts';
import { parseListQuery, type RawQuery } from './query.ts';
import { exportSelectColumns, loadRecords, type WireRecord } from './records.ts';

/** Rows fetched from the cursor per round trip. */
const BATCH = 2000;

/**
 * Streams the list (current filters and sort, no row cap) as CSV: UTF-8 BOM, labelled headers in the
 * request's language, labels for enum/dictionary/boolean values, formula escaping. Rows come from a
 * server-side cursor in a read-only transaction, batch by batch, and each batch waits for the socket to
 * drain, so memory stays flat whatever the row count. (On PGlite the export holds its single connection.)
 */
export async function exportCsv(
  ctx: OperationContext,
  raw: RawQuery,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  await ctx.authorize('export');
  const { db, resource } = ctx;
  const q = parseListQuery(resource, raw, { paged: false });
  const columns = exportColumns(resource, raw.fields);
  const writers = await cellWriters(db, request, resource, columns);
  const hasLinks = fieldsOf(resource).some((f) => f.kind === 'references' && columns.includes(f.name));
  const csv = stringify({ bom: true, writableHighWaterMark: BATCH, readableHighWaterMark: 1 << 20 });
  csv.write(columns.map((c) => fieldLabel(request, resource, c)));
  void reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', attachment(`${resource.name}-${stamp()}.csv`))
    .header('cache-control', 'no-store')
    .send(csv);
  const sql = `SELECT ${exportSelectColumns(resource, columns)} FROM ${ident(resource.table)} ${q.where} ${q.orderBy}`;
  try {
    await db.transaction(async (tx) => {
      await tx.query(`DECLARE engine_export NO SCROLL CURSOR FOR ${sql}`, q.params);
      while (!csv.destroyed) {
        const { rows } = await tx.query(`FETCH ${BATCH} FROM engine_export`);
        if (rows.length === 0) break;
        const records = hasLinks
          ? await loadRecords(tx, resource, ctx.registry, rows)
          : (rows as WireRecord[]);
        for (const record of records) csv.write(columns.map((c, i) => writers[i]!(record[c])));
        // Back-pressure once per batch: memory holds at most one batch beyond the stream's buffers.
        if (csv.writableNeedDrain) await drained(csv);
      }
      await tx.query('CLOSE engine_export');
    });
    csv.end();
  } catch (error) {
    request.log.error({ err: { type: (error as Error).name } }, 'export failed');
    csv.destroy(error as Error);
  }
  return reply;
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

function stamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
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
