import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { resourceDescriptors } from './scripts/lib/resourceDescriptors.ts';
import { PostgresFirstSequencer } from './tests/setup/sequencer.ts';

/**
 * `npm test` runs two projects: `unit` (jsdom: components, hooks, client helpers) and `server` (node: server
 * units and HTTP integration tests against a real database; PGlite unless DATABASE_URL is set, which is
 * how `npm run test:pg` runs the files that can differ on PostgreSQL). Browser tests: vitest.e2e.config.ts.
 */
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine. The server tests wait
    // on databases and child processes much of the time, so two files at once finish in far less time.
    maxWorkers: 2,
    sequence: { sequencer: PostgresFirstSequencer },
    projects: [
      {
        plugins: [react(), resourceDescriptors()],
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: [
            'src/**/*.test.{ts,tsx}',
            'schemas/**/*.test.ts',
            'resources/**/*.test.ts',
            'locales/**/*.test.ts',
          ],
          setupFiles: ['tests/setup/jsdom.ts'],
          // The admin shell is a large lazy chunk; loading it in jsdom takes seconds on a busy 2-core machine.
          testTimeout: 30_000,
        },
      },
      {
        // tests/integration/data-provider.test.ts drives the browser's dataProvider.
        plugins: [resourceDescriptors()],
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          // Migrates one template database per run; each test database is a copy of it (tests/helpers/db.ts).
          globalSetup: ['tests/setup/db-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
  },
});
