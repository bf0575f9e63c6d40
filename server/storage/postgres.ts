import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/index.ts';
import {
  checkKey,
  countingStream,
  holdErrors,
  notFound,
  type FileStorage,
  type StoredObject,
} from './types.ts';

/** Bytes per chunk row: big enough to keep the row count low, small enough to hold one in memory. */
export const CHUNK_SIZE = 1024 * 1024;
/** Bytes per row a download reads: small enough for V8's young generation (see `open`). */
const READ_SLICE = 64 * 1024;

/**
 * `STORAGE=postgres`: the bytes in the database itself, so N servers need nothing but the PostgreSQL they
 * share (and PGlite keeps working). Objects are rows of `storage_objects`, their bytes 1 MiB rows of
 * `storage_chunks` (migration 0025): an upload is written chunk by chunk as it arrives, each chunk its own
 * statement (PGlite's single connection stays free between them), and a download reads one chunk at a time
 * in 64 KiB slices.
 * Chunked rows rather than large objects: plain SQL on both databases, deletes cascade (no `lo_unlink`,
 * no orphans for `vacuumlo`), and a range read fetches just the chunks it covers.
 */
export function postgresStorage(
  db: Db,
  { chunkSize = CHUNK_SIZE }: { chunkSize?: number } = {},
): FileStorage {
  const storage: FileStorage = {
    driver: 'postgres',
    async stage(source, opts) {
      const counter = countingStream(opts);
      holdErrors(source);
      const { rows } = await db
        .query<{ id: string }>('INSERT INTO storage_objects (chunk_size) VALUES ($1) RETURNING id', [
          chunkSize,
        ])
        .catch((error: unknown) => {
          // Nothing will read the source: end it (an export's holds a database connection).
          source.destroy();
          throw error;
        });
      const id = String(rows[0]!.id);
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (isLast: boolean) => {
        while (pendingBytes >= chunkSize || (isLast && pendingBytes > 0)) {
          const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
          const piece = all.subarray(0, chunkSize);
          const rest = all.subarray(piece.length);
          pending = rest.length ? [rest] : [];
          pendingBytes = rest.length;
          await db.query('INSERT INTO storage_chunks (object_id, seq, data) VALUES ($1, $2, $3)', [
            id,
            seq,
            piece,
          ]);
          seq += 1;
        }
      };
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          pending.push(chunk);
          pendingBytes += chunk.length;
          if (pendingBytes < chunkSize) return done();
          flush(false).then(() => done(), done);
        },
        final(done) {
          flush(true).then(() => done(), done);
        },
      });
      const drop = () => db.query('DELETE FROM storage_objects WHERE id = $1', [id]).then(() => undefined);
      try {
        await pipeline(source, counter, sink);
        await db.query('UPDATE storage_objects SET size = $2 WHERE id = $1', [id, counter.byteCount]);
      } catch (error) {
        await drop().catch(() => undefined);
        throw error;
      }
      let isSettled = false;
      return {
        size: counter.byteCount,
        head: counter.head(),
        async commit(key) {
          checkKey(key);
          await db.transaction(async (tx) => {
            await tx.query('DELETE FROM storage_objects WHERE key = $1', [key]);
            await tx.query(
              'UPDATE storage_objects SET key = $2, committed_at = now() WHERE id = $1 AND key IS NULL',
              [id, key],
            );
          });
          isSettled = true;
        },
        async discard() {
          if (!isSettled) await drop();
          isSettled = true;
        },
      };
    },
    async open(key, range) {
      const { rows } = await db.query<{ id: string; size: string; chunk_size: number }>(
        'SELECT id, size, chunk_size FROM storage_objects WHERE key = $1',
        [checkKey(key)],
      );
      const row = rows[0];
      if (!row) throw notFound(key);
      const size = Number(row.size);
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      const cs = row.chunk_size;
      async function* chunks(): AsyncGenerator<Buffer> {
        if (end < start) return;
        const last = Math.floor(end / cs);
        for (let seq = Math.floor(start / cs); seq <= last; seq += 1) {
          const from = seq * cs < start ? start - seq * cs : 0;
          const to = seq === last ? end - seq * cs + 1 : cs;
          // The covered part of one chunk row, in slices that stay small objects: a 1 MiB value would
          // arrive as a 2 MiB hex string plus its buffer, garbage that V8 only reclaims in a full
          // collection, so a long download would grow the heap; 64 KiB slices die young and memory
          // stays flat. One statement per chunk still; the slices come as its rows, in order.
          const res = await db.query<{ data: Uint8Array; total: number }>(
            `SELECT substring(c.data FROM s FOR least($4::int, $3::int + 1 - s)) AS data,
                    octet_length(c.data) AS total
             FROM storage_chunks c, generate_series($5::int, $3::int, $4::int) AS s
             WHERE c.object_id = $1 AND c.seq = $2 ORDER BY s`,
            [row!.id, seq, to, READ_SLICE, from + 1],
          );
          if (res.rows.length === 0 || res.rows[0]!.total < to) throw notFound(key);
          for (const { data } of res.rows) {
            yield Buffer.from(data.buffer, data.byteOffset, data.byteLength);
          }
        }
      }
      return { stream: Readable.from(chunks(), { objectMode: false }), size };
    },
    async stat(key) {
      const { rows } = await db.query<{ size: string; committed_at: Date }>(
        'SELECT size, committed_at FROM storage_objects WHERE key = $1',
        [checkKey(key)],
      );
      const row = rows[0];
      return row ? { key, size: Number(row.size), modified: new Date(row.committed_at) } : null;
    },
    async put(key, source) {
      const staged = await storage.stage(source, { maxBytes: Number.POSITIVE_INFINITY, headBytes: 0 });
      await staged.commit(key);
      return { size: staged.size };
    },
    async remove(key) {
      await db.query('DELETE FROM storage_objects WHERE key = $1', [checkKey(key)]);
    },
    async *list(prefix = '') {
      let after = '';
      for (;;) {
        const { rows } = await db.query<{ key: string; size: string; committed_at: Date }>(
          `SELECT key, size, committed_at FROM storage_objects
           WHERE key IS NOT NULL AND starts_with(key, $1) AND key > $2 ORDER BY key LIMIT 500`,
          [prefix, after],
        );
        for (const row of rows)
          yield {
            key: row.key,
            size: Number(row.size),
            modified: new Date(row.committed_at),
          } as StoredObject;
        if (rows.length < 500) return;
        after = rows.at(-1)!.key;
      }
    },
    async cleanTemp(before) {
      const { rows } = await db.query<{ size: string }>(
        `DELETE FROM storage_objects o WHERE key IS NULL AND created_at < $1
         RETURNING (SELECT coalesce(sum(octet_length(c.data)), 0) FROM storage_chunks c
                    WHERE c.object_id = o.id)::text AS size`,
        [before],
      );
      return { removed: rows.length, bytes: rows.reduce((sum, r) => sum + Number(r.size), 0) };
    },
    async close() {},
  };
  return storage;
}
