import { defineConfig } from 'vitest/config';

/**
 * Two tiers, as vitest projects (docs/development.md):
 *   - `fast`: pure, in-process and store-on-SQLite tests — the inner loop, `npm run test:fast`;
 *   - `slow`: end-to-end (child processes), browser and PostgreSQL tests, and the files that
 *     wait on real time; plus the PostgreSQL halves of the store tests.
 * `npm test` (what CI runs) runs both, so every test runs once. A store test written with
 * test/support/store-engines.ts runs its SQLite half in `fast` and its PostgreSQL half in
 * `slow` (WORKLINK_TEST_ENGINES below).
 */

/** Files that start processes or servers, drive a browser, or wait on the wall clock. */
const SLOW = [
  'test/e2e/**/*.test.ts',
  'test/**/*.browser.test.ts',
  'test/hosted/**/*.test.ts',
  'test/service/cli.test.ts',
  'test/start.test.ts',
  'test/sandbox/start.test.ts',
  'test/sandbox/launch.test.ts',
  'test/sandbox/page.test.ts',
  'test/slack/notify/live-messages.test.ts',
  'test/slack/notify/worker.test.ts',
  'test/slack/notify/kill.test.ts',
  'test/slack/feeds/feeds.test.ts',
  'test/workapi/fuzz.test.ts',
  'test/store/pg-*.test.ts',
];

/** Files that test both store engines: SQLite half fast, PostgreSQL half slow. */
const BOTH_ENGINES = ['test/store/**/*.test.ts', 'test/slack/notify/two-workers.test.ts'];

const shared = {
  // End-to-end tests start real servers; give them room on a 2-core machine.
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: SLOW,
          env: { WORKLINK_TEST_ENGINES: 'sqlite' },
        },
      },
      {
        test: {
          ...shared,
          name: 'slow',
          include: [...SLOW, ...BOTH_ENGINES],
          // SQLite-only store files: run once, in `fast`.
          exclude: ['test/store/file-modes.test.ts'],
          env: { WORKLINK_TEST_ENGINES: 'pg' },
        },
      },
    ],
  },
});
