import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  checkKey,
  countingStream,
  notFound,
  tempName,
  type FileStorage,
  type S3Settings,
  type StoredObject,
} from './types.ts';

/** Multipart part size: parts in flight times this is what an upload holds in memory. */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * `STORAGE=s3`: any S3-compatible object store through the AWS SDK v3. An upload streams to
 * `<prefix>.tmp/<random>.part` (multipart above 5 MiB, S3's smallest part, two parts in flight, so memory stays flat), and
 * `commit` copies it to its key inside the store and deletes the temp object. Downloads are a GetObject
 * stream (with `Range` for range requests). Checksums are computed only where S3 requires them, which
 * keeps older S3-compatible servers working. Credentials: the S3_* variables, else the SDK's default chain.
 */
export function s3Storage(settings: S3Settings): FileStorage {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    ...(settings.accessKeyId && settings.secretAccessKey
      ? {
          credentials: {
            accessKeyId: settings.accessKeyId,
            secretAccessKey: settings.secretAccessKey,
          },
        }
      : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const tmpPrefix = `${settings.prefix}.tmp/`;
  const objectKey = (key: string) => `${settings.prefix}${checkKey(key)}`;
  const isMissing = (error: unknown) => {
    const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
    return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
  };
  const remove = async (Key: string) => {
    await client.send(new DeleteObjectCommand({ Bucket, Key }));
  };
  async function* listRaw(Prefix: string) {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
      for (const item of page.Contents ?? []) if (item.Key) yield item;
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  const storage: FileStorage = {
    driver: 's3',
    async stage(source, opts) {
      const tmp = `${tmpPrefix}${tempName()}`;
      const counter = countingStream(opts);
      source.on('error', (error) => counter.destroy(error));
      const upload = new Upload({
        client,
        params: { Bucket, Key: tmp, Body: source.pipe(counter) },
        partSize: PART_SIZE,
        queueSize: PARTS_IN_FLIGHT,
      });
      try {
        await upload.done();
      } catch (error) {
        // `pipe` leaves the source paused, not ended, when the upload stops reading it: an export's source
        // holds a database connection until it is destroyed.
        source.destroy();
        await remove(tmp).catch(() => undefined);
        // The counter's own error (too large, client gone) rather than the SDK's wrapping of it.
        throw counter.errored ?? error;
      }
      let isSettled = false;
      return {
        size: counter.byteCount,
        head: counter.head(),
        async commit(key) {
          await client.send(
            new CopyObjectCommand({
              Bucket,
              Key: objectKey(key),
              CopySource: `${Bucket}/${tmp.split('/').map(encodeURIComponent).join('/')}`,
            }),
          );
          isSettled = true;
          await remove(tmp).catch(() => undefined);
        },
        async discard() {
          if (!isSettled) await remove(tmp);
          isSettled = true;
        },
      };
    },
    async open(key, range) {
      try {
        const res = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: objectKey(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        const total = /\/(\d+)$/.exec(res.ContentRange ?? '')?.[1];
        const size = total ? Number(total) : Number(res.ContentLength ?? 0);
        return { stream: res.Body as Readable, size };
      } catch (error) {
        if (isMissing(error)) throw notFound(key);
        throw error;
      }
    },
    async stat(key) {
      try {
        const res = await client.send(new HeadObjectCommand({ Bucket, Key: objectKey(key) }));
        return { key, size: Number(res.ContentLength ?? 0), modified: res.LastModified ?? new Date(0) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async put(key, source) {
      const staged = await storage.stage(source, { maxBytes: Number.POSITIVE_INFINITY, headBytes: 0 });
      await staged.commit(key);
      return { size: staged.size };
    },
    async remove(key) {
      await remove(objectKey(key));
    },
    async *list(prefix = '') {
      for await (const item of listRaw(`${settings.prefix}${prefix}`)) {
        const key = item.Key!.slice(settings.prefix.length);
        if (key.startsWith('.tmp/')) continue;
        yield {
          key,
          size: Number(item.Size ?? 0),
          modified: item.LastModified ?? new Date(0),
        } as StoredObject;
      }
    },
    async cleanTemp(before) {
      let removed = 0;
      let bytes = 0;
      for await (const item of listRaw(tmpPrefix)) {
        if (!item.LastModified || item.LastModified >= before) continue;
        await remove(item.Key!);
        removed += 1;
        bytes += Number(item.Size ?? 0);
      }
      return { removed, bytes };
    },
    async close() {
      client.destroy();
    },
  };
  return storage;
}
