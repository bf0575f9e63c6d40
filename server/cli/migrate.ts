import fs from 'node:fs';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { MIGRATIONS_DIR, migrate } from '../db/migrate.ts';
import { forgetAppliedTo } from '../engine/pending-migrations.ts';

if (fs.existsSync('.env')) process.loadEnvFile('.env');
const config = loadConfig(process.env);
const db = await openDatabase(config);
try {
  const applied = await migrate(db);
  forgetAppliedTo(config, applied, MIGRATIONS_DIR);
  process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'Nothing to migrate.\n');
} finally {
  await db.close();
}
