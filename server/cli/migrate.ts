import fs from 'node:fs';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { MIGRATIONS_DIR, migrate } from '../db/migrate.ts';
import { forgetAppliedTo } from '../engine/schema/pending-migrations.ts';

if (fs.existsSync('.env')) process.loadEnvFile('.env');
const config = loadConfig(process.env);
let db;
try {
  db = await openDatabase(config);
} catch (error) {
  // A PGlite directory a running server holds: an operator message, not a stack trace.
  if (!(error instanceof DataDirLockedError)) throw error;
  process.stderr.write(`[db:migrate] ${error.message}\n`);
  process.exit(1);
}
try {
  const applied = await migrate(db);
  forgetAppliedTo(config, applied, MIGRATIONS_DIR);
  process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Nothing to migrate.\n');
} finally {
  await db.close();
}
