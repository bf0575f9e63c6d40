/**
 * `npm run storage:migrate -- --to postgres [--from local]`: copies every stored object (assets, backups, the
 * CSV job files under `jobs/`; one that a running server removes meanwhile is counted as gone, not failed)
 * from the configured storage (STORAGE, or --from) to another driver, verifying each copy's size and
 * SHA-256, then checks that every asset row's file is in the target. Resumable: run it again after an
 * interruption and it skips what is already there. The source is left untouched; switch STORAGE to the
 * target and restart the servers once it reports no failures. The target's settings come from the same
 * variables (S3_*, STORAGE_DIR for local). With PGlite, stop the server first (one process per data dir).
 */
import fs from 'node:fs';
import { assets } from '../../resources/assets.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { migrate } from '../db/migrate.ts';
import { asSystem } from '../engine/system-access.ts';
import { copyStorage } from '../storage/copy.ts';
import { openStorage, STORAGE_DRIVERS, type StorageDriver } from '../storage/index.ts';

const say = (line: string) => void process.stdout.write(`[storage:migrate] ${line}\n`);

function option(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function driverOf(value: string | undefined, name: string): StorageDriver {
  if (value && (STORAGE_DRIVERS as readonly string[]).includes(value)) return value as StorageDriver;
  throw new Error(`--${name} must be one of ${STORAGE_DRIVERS.join(', ')}`);
}

if (fs.existsSync('.env')) process.loadEnvFile('.env');
const config = loadConfig(process.env);
let code = 0;
try {
  const to = driverOf(option('to'), 'to');
  const from = driverOf(option('from') ?? config.storage.driver, 'from');
  if (from === to) throw new Error(`source and target are both ${to}`);
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const source = openStorage(config, db, from);
    const target = openStorage(config, db, to);
    say(`${from} -> ${to}`);
    const report = await copyStorage(source, target, { log: say });
    const rows = await asSystem(db).list<{ storage_key: string; size: number }>(assets, {
      columns: ['storage_key', 'size'],
    });
    let missing = 0;
    for (const row of rows) {
      const there = await target.stat(row.storage_key);
      if (!there || there.size !== Number(row.size)) {
        missing += 1;
        say(`MISSING asset file ${row.storage_key} (${there ? `size ${there.size}` : 'absent'})`);
      }
    }
    say(
      `done: ${report.copied} copied (${report.bytes} bytes), ${report.skipped} already there, ` +
        `${report.gone} job files gone meanwhile, ${report.failed.length} failed; ${rows.length - missing} of ${rows.length} asset files in ${to}`,
    );
    if (report.failed.length || missing) code = 1;
    else say(`set STORAGE=${to} and restart the servers; the ${from} copies are kept`);
    await source.close();
    await target.close();
  } finally {
    await db.close();
  }
} catch (error) {
  process.stderr.write(`[storage:migrate] ${error instanceof Error ? error.message : String(error)}\n`);
  code = 1;
}
process.exit(code);
