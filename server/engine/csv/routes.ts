import { pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasOperation, type Resource } from '../../../resources/define.ts';
import { ok, okWithMeta } from '../../core/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { route } from '../../core/route.ts';
import type { Db } from '../../db/index.ts';
import { findJob, type JobRecord } from '../../jobs/records.ts';
import { csvFileKey, GZIP_SUFFIX } from './files.ts';
import { CSV_EXPORT_QUEUE, CSV_IMPORT_QUEUE, type CsvJobs, type ExportOutput } from './jobs.ts';
import { attachment, exportRecords } from './export.ts';
import { importRecords } from './import.ts';
import { XLSX_TYPE } from './xlsx-export.ts';
import type { OperationContext } from '../context.ts';
import { jobParams, routeDoc } from '../openapi.ts';

/** A CSV job as its requester sees it (the job's data stays on the jobs page). */
export type CsvJobStatus = Omit<JobRecord, 'data'>;

/**
 * The HTTP side of CSV export and import (the operations are export.ts and import.ts):
 * `GET <endpoint>/export` (the CSV, or 202 with a job when large) and `POST <endpoint>/import` (multipart
 * `file`; the report, or 202 with a job). With `csvJobs`, the requester's view of their large jobs (they need
 * not hold the jobs page): `GET <endpoint>/export/<job>` and `GET <endpoint>/import/<job>` (state, progress,
 * output or error), and `GET <endpoint>/export/<job>/download` (the CSV once completed). Each job route needs
 * the resource's `.export` or `.import` permission now (403), and answers 404 for a job of someone else or
 * another resource.
 */
export function registerCsvRoutes(
  app: FastifyInstance,
  {
    db,
    base,
    resource,
    csvJobs,
    ctxOf,
    schemas,
  }: {
    db: Db;
    base: string;
    resource: Resource;
    csvJobs?: CsvJobs;
    ctxOf: (request: FastifyRequest) => OperationContext;
    /** OpenAPI documentation of the routes (openapi.ts). */
    schemas: Record<
      'export' | 'import' | 'exportJob' | 'exportDownload' | 'importJob',
      Record<string, unknown>
    >;
  },
): void {
  const exports = hasOperation(resource, 'export');
  const imports = hasOperation(resource, 'import');

  if (exports)
    route(app, {
      method: 'GET',
      url: `${base}/export`,
      ...routeDoc(schemas.export),
      // Compressed here (streamedEncoding), not by @fastify/compress, which would pick brotli for a browser.
      compress: false,
      handler: async ({ query, request, reply }) => {
        const result = await exportRecords(ctxOf(request), {
          query: query ?? {},
          lang: request,
          jobs: csvJobs,
        });
        if ('job' in result) return reply.code(202).send(ok(result.job));
        const { stream } = result.csv;
        reply
          .header('content-type', contentTypeOf(result.name))
          .header('content-disposition', attachment(result.name))
          .header('cache-control', 'no-store');
        const failed = (error: Error | null | undefined) => {
          if (error) request.log.error({ err: { type: error.name } }, 'export failed');
        };
        // An .xlsx is a zip already: sent as it is.
        if (result.format !== 'csv') return reply.send(stream.on('error', failed));
        reply.header('vary', 'accept-encoding');
        if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(stream.on('error', failed));
        const gzip = zlib.createGzip(STREAMED_GZIP);
        pipeline(stream, gzip, failed);
        return reply.header('content-encoding', 'gzip').send(gzip);
      },
    });
  if (imports)
    route(app, {
      method: 'POST',
      url: `${base}/import`,
      ...routeDoc(schemas.import),
      // The multipart file is read by importRecords after the access check.
      handler: async ({ query, request, reply }) => {
        // A `mapping` part sent before the file renames its columns (csv/xlsx-import.ts).
        const upload = () =>
          request.file().then(
            (file) => file && Object.assign(file.file, { mapping: fieldText(file.fields.mapping) }),
            () => undefined,
          );
        const result = await importRecords(ctxOf(request), {
          query: query ?? {},
          upload,
          lang: request,
          jobs: csvJobs,
        });
        if ('job_id' in result) return reply.code(202).send(ok(result));
        // A committed import answers its operation for undo (undo.ts) beside the report.
        const { operation_id: operationId, ...report } = result;
        return operationId ? okWithMeta(report, { operation_id: operationId }) : ok(report);
      },
    });
  if (!csvJobs) return;

  const ownJob = async (
    { request, jobId }: { request: FastifyRequest; jobId: string },
    queue: string,
    action: 'export' | 'import',
  ) => {
    const actor = await ctxOf(request).authorize(action);
    const job = await findJob(db, queue, jobId);
    const data = (job?.data ?? {}) as { user_id?: string; resource?: string };
    if (!job || data.user_id !== actor.userId || data.resource !== resource.name) throw AppError.notFound();
    return job;
  };
  const statusOf = ({ data: _data, ...rest }: JobRecord): CsvJobStatus => rest;

  if (exports) {
    route(app, {
      method: 'GET',
      url: `${base}/export/:jobId`,
      ...routeDoc(schemas.exportJob),
      params: jobParams,
      handler: async ({ params, request }) =>
        ok(statusOf(await ownJob({ request, jobId: params.jobId }, CSV_EXPORT_QUEUE, 'export'))),
    });
    route(app, {
      method: 'GET',
      url: `${base}/export/:jobId/download`,
      ...routeDoc(schemas.exportDownload),
      params: jobParams,
      // The file is compressed already (or an xlsx): @fastify/compress must not compress it per download.
      compress: false,
      handler: async ({ params, request, reply }) => {
        const job = await ownJob({ request, jobId: params.jobId }, CSV_EXPORT_QUEUE, 'export');
        if (job.state !== 'completed') throw AppError.notFound();
        const output = job.output as ExportOutput;
        const gzipped = output.stored === 'gzip';
        // From the shared storage: the job may have run on another server.
        const file = await csvJobs.storage
          .open(`${csvFileKey('exports', job.id)}${gzipped ? GZIP_SUFFIX : ''}`)
          .catch((error: { code?: string }) => {
            if (error.code === 'ENOENT') throw AppError.notFound();
            throw error;
          });
        reply
          .header('content-type', contentTypeOf(output.name))
          .header('content-disposition', attachment(output.name))
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff');
        if (!gzipped) return reply.header('content-length', file.size).send(file.stream);
        reply.header('vary', 'accept-encoding');
        // The stored gzip bytes as they are (a browser inflates them; its saved file is the CSV)...
        if (acceptsGzip(request.headers['accept-encoding']))
          return reply
            .header('content-encoding', 'gzip')
            .header('content-length', file.size)
            .send(file.stream);
        // ...or inflated on the way for a client that does not take gzip: the same CSV, byte for byte.
        const inflate = zlib.createGunzip();
        pipeline(file.stream, inflate, (error) => {
          if (error) request.log.error({ err: { type: error.name } }, 'export download failed');
        });
        return reply.header('content-length', output.size).send(inflate);
      },
    });
  }
  if (imports)
    route(app, {
      method: 'GET',
      url: `${base}/import/:jobId`,
      ...routeDoc(schemas.importJob),
      params: jobParams,
      handler: async ({ params, request }) =>
        ok(statusOf(await ownJob({ request, jobId: params.jobId }, CSV_IMPORT_QUEUE, 'import'))),
    });
}

/**
 * How a CSV streamed in the request is compressed for a client that takes gzip (issue 37 item 1): gzip at
 * level 1, never brotli. @fastify/compress chose brotli for every browser; a brotli encoder's native buffers
 * for a stream of tens of MB, freed in the thread pool's malloc arenas, stayed in the process: RSS grew about
 * 10 MB per 100k-row export and was not given back, while gzip at level 1 keeps it flat (docs/operations.md,
 * "Export end to end", third round). Level 1 also costs the least CPU per byte; a CSV still shrinks ~5x.
 */
export const STREAMED_GZIP = { level: 1 } as const;

/** Whether an Accept-Encoding header takes gzip (`gzip`, `x-gzip` or `*`, not with `q=0`). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  let star = false;
  for (const part of text.split(',')) {
    const [token = '', ...rest] = part.trim().toLowerCase().split(';');
    const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = !q || Number(q.slice(2)) > 0;
    if (token.trim() === 'gzip' || token.trim() === 'x-gzip') return accepted;
    if (token.trim() === '*') star = accepted;
  }
  return star;
}

/** The download's media type by its name's extension (`.xlsx` or `.csv`). */
function contentTypeOf(name: string): string {
  return name.endsWith('.xlsx') ? XLSX_TYPE : 'text/csv; charset=utf-8';
}

/** The text of a multipart field part (undefined for a file part or none). */
function fieldText(part: unknown): string | undefined {
  const one = Array.isArray(part) ? part[0] : part;
  return one && typeof one === 'object' && 'value' in one && typeof one.value === 'string'
    ? one.value
    : undefined;
}
