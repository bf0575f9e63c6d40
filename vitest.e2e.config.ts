import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: browser tests in Debian's Chromium (playwright-core) against the real server, which
 * tests/e2e/helpers/globalSetup.ts builds (when stale) and starts on a free port. One file at a time: they
 * share that one server, and two cores are enough for one browser.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/helpers/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    // expect.poll's own default deadline is 1 s: under CI load a debounced filter or a focus moving back took
    // longer (engine.e2e's filter, palette.e2e's Escape). A poll still ends as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
  },
});
