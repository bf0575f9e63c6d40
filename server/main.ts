import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildApp } from './app.ts';
import { ensureFirstAdmin } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/index.ts';
import { migrate } from './db/migrate.ts';

/** Starts the server: open and migrate the database, create the first admin, listen, drain on SIGTERM. */
export async function main(startedAt = performance.now()): Promise<void> {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig(process.env);
  const db = await openDatabase(config);
  const applied = await migrate(db);
  const admin = await ensureFirstAdmin(db, {
    username: config.adminUsername,
    password: config.adminPassword,
  });
  const app = await buildApp({ db, config });
  if (applied.length) app.log.info({ migrations: applied }, 'migrations applied');
  if (admin.created) app.log.info({ username: config.adminUsername }, 'first administrator created');
  if (admin.generatedPassword) {
    // Printed once to the terminal only: never through the logger, so it reaches no log file.
    process.stdout.write(
      `\n  First administrator: ${config.adminUsername}\n  Generated password:  ${admin.generatedPassword}\n` +
        `  (shown once; set ADMIN_PASSWORD to choose your own)\n\n`,
    );
  }
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      await db.close();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { startup_ms: Math.round(performance.now() - startedAt), database: db.kind, port: config.port },
    'server started',
  );
}

const isEntry = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isEntry) {
  main().catch((err: unknown) => {
    process.stderr.write(`Failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
