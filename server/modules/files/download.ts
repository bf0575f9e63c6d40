import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../core/errors.ts';
import type { ByteRange, FileStorage } from '../../storage/index.ts';

/**
 * Sends a stored object with `headers` (set only once the object is open, so a 404 or 416 does not carry
 * them): the whole of it (200) or,
 * for a single `Range: bytes=...` request, that part (206 with Content-Range). Every driver reads ranges
 * natively (a file offset, the chunks covering it, S3's own Range). Several ranges, or an `If-Range`
 * (there are no validators to compare), get the whole object; a range past the end is a 416. A missing
 * object is a 404.
 */
export async function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  store: FileStorage,
  key: string,
  size: number,
  headers: Record<string, string>,
): Promise<FastifyReply> {
  const header = request.headers.range;
  const range = typeof header === 'string' && !request.headers['if-range'] ? parseRange(header, size) : null;
  if (range === 'unsatisfiable') {
    throw new AppError(416, 'errors.range_not_satisfiable', {
      headers: { 'content-range': `bytes */${size}` },
    });
  }
  const file = await store.open(key, range ?? undefined).catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') throw AppError.notFound();
    throw error;
  });
  void reply.headers(headers).header('accept-ranges', 'bytes');
  if (!range) return reply.header('content-length', file.size).send(file.stream);
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
    .header('content-length', range.end - range.start + 1)
    .send(file.stream);
}

/** `bytes=0-99`, `bytes=100-`, `bytes=-100` against `size`; null (whole object) for anything else. */
export function parseRange(header: string, size: number): ByteRange | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return null;
  }
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
