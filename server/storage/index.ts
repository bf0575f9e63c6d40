import path from 'node:path';
import type { Db } from '../db/index.ts';
import { localStorage } from './local.ts';
import { postgresStorage } from './postgres.ts';
import type { FileStorage, S3Settings, StorageConfig, StorageDriver } from './types.ts';

export * from './types.ts';
export { localStorage, postgresStorage };

/**
 * The storage a configuration names (`STORAGE`, default `local`), or `driver` to override it (the
 * storage:migrate command opens two). Example: `const storage = openStorage(config, db)`.
 */
export function openStorage(
  config: { dataDir: string; storage: StorageConfig },
  db: Db,
  driver: StorageDriver = config.storage.driver,
): FileStorage {
  if (driver === 'postgres') return postgresStorage(db);
  if (driver === 's3') {
    if (!config.storage.s3.bucket) throw new Error('STORAGE=s3 needs S3_BUCKET');
    return s3Storage({ ...config.storage.s3, bucket: config.storage.s3.bucket });
  }
  return localStorage(config.storage.localDir ?? path.join(config.dataDir, 'uploads'));
}

/**
 * `STORAGE=s3` (s3.ts): the AWS SDK is large, so it is loaded on the first call, not when the server
 * starts; every call then goes to the storage s3.ts builds. Example: `const storage = s3Storage(settings)`.
 */
export function s3Storage(settings: S3Settings): FileStorage {
  let loading: Promise<FileStorage> | null = null;
  const real = () => (loading ??= import('./s3.ts').then((m) => m.s3Storage(settings)));
  return {
    driver: 's3',
    async stage(source, opts) {
      // The upload may fail while the SDK loads: keep its error (s3.ts listens only from its own stage on).
      let early: Error | null = null;
      const keep = (error: Error) => void (early ??= error);
      source.on('error', keep);
      const storage = await real().finally(() => source.off('error', keep));
      if (early) throw early;
      return storage.stage(source, opts);
    },
    open: async (key, range) => (await real()).open(key, range),
    stat: async (key) => (await real()).stat(key),
    put: async (key, source) => (await real()).put(key, source),
    remove: async (key) => (await real()).remove(key),
    async *list(prefix) {
      yield* (await real()).list(prefix);
    },
    cleanTemp: async (before) => (await real()).cleanTemp(before),
    async close() {
      if (loading) await (await loading).close();
    },
  };
}
