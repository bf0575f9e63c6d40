import path from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { localStorage } from './local.ts';
import { postgresStorage } from './postgres.ts';
import { s3Storage } from './s3.ts';
import type { FileStorage, StorageDriver } from './types.ts';

export * from './types.ts';
export { localStorage, postgresStorage, s3Storage };

/**
 * The storage a configuration names (`STORAGE`, default `local`), or `driver` to override it (the
 * storage:migrate command opens two). Example: `const storage = openStorage(config, db)`.
 */
export function openStorage(
  config: Pick<Config, 'dataDir' | 'storage'>,
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
