import { describe, expect, it } from 'vitest';
import { translate } from '../../../locales/index.ts';
import { BackupError, backupFailureOf } from './backup.ts';

/**
 * pg_dump's stderr (libpq's and its own messages, LC_MESSAGES=C) classed into the reason a failed backup
 * run keeps instead of the text, which names the host, port, user and database. The whole path against
 * real bad targets is tests/integration/db-backup-errors.test.ts (PostgreSQL).
 */
describe('backupFailureOf', () => {
  it.each([
    [
      'pg_dump: error: connection to server at "db.internal" (10.0.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"',
      'auth',
    ],
    [
      'pg_dump: error: connection to server at "127.0.0.1", port 5432 failed: FATAL:  no pg_hba.conf entry for host "10.0.0.9", user "app", database "shop", no encryption',
      'auth',
    ],
    [
      'pg_dump: error: connection to server at "127.0.0.1", port 5432 failed: FATAL:  database "shop" does not exist',
      'target',
    ],
    [
      'pg_dump: error: connection to server at "127.0.0.1", port 5432 failed: FATAL:  role "app" does not exist',
      'target',
    ],
    [
      'pg_dump: error: aborting because of server version mismatch\npg_dump: detail: server version: 16.2; pg_dump version: 15.18',
      'version',
    ],
    [
      'pg_dump: error: could not open output file "/data/.backup-x/backup.dump": No space left on device',
      'output',
    ],
    [
      'pg_dump: error: connection to server at "127.0.0.1", port 1 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?',
      'unavailable',
    ],
    [
      'pg_dump: error: could not translate host name "db.internal" to address: Name or service not known',
      'unavailable',
    ],
    ['pg_dump: error: query failed: server closed the connection unexpectedly', 'unavailable'],
    [
      'pg_dump: error: query failed: ERROR:  permission denied for table secrets\npg_dump: detail: Query was: LOCK TABLE public.secrets IN ACCESS SHARE MODE',
      'permission',
    ],
    ['pg_dump: error: something nobody foresaw on host db.internal', 'other'],
  ])('%s -> %s', (stderr, reason) => {
    expect(backupFailureOf(stderr)).toBe(reason);
  });

  it('gives every reason a message in both languages and an error text without the stderr', () => {
    for (const reason of ['auth', 'target', 'version', 'output', 'permission', 'missing', 'other'] as const) {
      const error = new BackupError(reason, 1);
      expect(error.message).toBe(`pg_dump failed: ${reason} (exit code 1)`);
      for (const locale of ['en', 'zh-CN'] as const)
        expect(translate(locale, error.messageKey)).not.toBe(error.messageKey);
    }
    expect(new BackupError('unavailable').messageKey).toBe('errors.db_unavailable');
  });
});
