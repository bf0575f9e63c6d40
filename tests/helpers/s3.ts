import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../server/storage/types.ts';

export interface LoopbackS3 {
  /** Settings for `s3Storage` (bucket, endpoint, path style, s3rver's fixed keys). */
  settings: S3Settings;
  /** The same as STORAGE=s3 environment variables, for a server process. */
  env: Record<string, string>;
  /** Sets an object's LastModified (s3rver reports its file's mtime), to age it for a test. */
  setModified(key: string, when: Date): void;
  close(): Promise<void>;
}

/**
 * An S3 server on loopback (s3rver: the S3 REST protocol over a temp directory) with one bucket, so the
 * s3 driver talks to a real S3 implementation through the AWS SDK. Example:
 * `const s3 = await startLoopbackS3(); const storage = s3Storage(s3.settings); ...; await s3.close();`
 */
export async function startLoopbackS3(bucket = 'assets'): Promise<LoopbackS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = {
    bucket,
    region: 'us-east-1',
    endpoint,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    prefix: '',
  };
  return {
    settings,
    env: {
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
    },
    setModified(key, when) {
      const parts = `${settings.prefix}${key}`.split('/');
      const file = path.join(directory, bucket, ...parts.slice(0, -1), `${parts.at(-1)}._S3rver_object`);
      fs.utimesSync(file, when, when);
    },
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
