import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Test tiers, as vitest projects (docs/development.md):
 *   - `fast`: pure, in-process and store-on-SQLite tests — the inner loop, `npm run test:fast`;
 *   - `slow`: end-to-end (child processes), browser tests and the files that wait on real time,
 *     on both store engines;
 *   - `postgres`: the PostgreSQL halves of the other files that test both engines.
 * `npm test` (what CI runs) runs all three, so every test runs once. A file that tests both
 * engines (it calls `storeEngines()` or `usePostgres()`, found below) runs its SQLite half in
 * `fast` and its PostgreSQL half in `postgres` (WORKLINK_TEST_ENGINES, see
 * test/support/store-engines.ts `engineWanted`).
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
  'test/slack/notify/worker.test.ts',
  'test/slack/notify/kill.test.ts',
  // Paces real seconds against a fake Slack in the same process: one file at a time.
  'test/slack/notify/two-workers.test.ts',
  'test/workapi/fuzz.test.ts',
  'test/store/pg-*.test.ts',
  'test/store/upkeep.test.ts',
];

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Files that test both store engines. */
const BOTH_ENGINES = testFiles('test').filter((f) =>
  /\b(storeEngines|usePostgres)\(/.test(readFileSync(f, 'utf8')),
);

const shared = {
  // End-to-end tests start real servers; give them room on a 2-core machine.
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // One PostgreSQL server for the run (not started when only `fast` runs).
    globalSetup: ['test/support/postgres-run.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'fast',
          include: ['test/**/*.test.ts'],
          // One module graph per worker instead of one per file: importing Bolt, Fastify and
          // the app again for each of ~110 files cost more CPU than the tests themselves. The
          // tests share no module state (each starts its own app, store and fakes).
          isolate: false,
          // Four files at a time even on 2 cores: most of a file's time is waiting on sockets
          // and timers (idle here: 34 s with two, 26–28 s with four; the CPU is ~37 s either way).
          maxWorkers: 4,
          // vitest runs projects with different maxWorkers in separate groups: this one first.
          sequence: { groupOrder: 0 },
          exclude: SLOW,
          env: { WORKLINK_TEST_ENGINES: 'sqlite' },
        },
      },
      // One file at a time (processes, browsers, servers), after the fast tier.
      {
        test: {
          ...shared,
          name: 'slow',
          include: SLOW,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...shared,
          name: 'postgres',
          include: BOTH_ENGINES,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          // The same files as the fast tier's SQLite halves: no module state to isolate.
          isolate: false,
          exclude: SLOW,
          env: { WORKLINK_TEST_ENGINES: 'pg' },
        },
      },
    ],
  },
});
