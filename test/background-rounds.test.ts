/**
 * The background rounds (watcher, task index refresh, daily digest, quiet hours) on a store
 * that cannot be asked — a database gone for a moment. Each failed round is logged and the
 * next tick tries again; none may become an unhandled rejection, which ends a Node process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { DigestDeps } from '../src/slack/digest/scheduler.js';
import { DigestScheduler } from '../src/slack/digest/scheduler.js';
import { QuietRelease } from '../src/slack/notify/dm-gate.js';
import { openStore, type Store } from '../src/store/index.js';
import { TaskIndexRefresh } from '../src/sync/task-index-refresh.js';
import { Watcher } from '../src/sync/watcher.js';

let dir: string;
let store: Store;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'worklink-rounds-'));
  store = openStore(dir);
  await store.close(); // every call now rejects: "The database connection is not open"
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  rmSync(dir, { recursive: true, force: true });
});

function recorder() {
  const warnings: string[] = [];
  const log = (line: string) => warnings.push(line);
  return { warnings, logger: { warn: log, debug: () => {}, info: () => {} } };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

it.each([
  [
    'task index refresh',
    (logger: ReturnType<typeof recorder>['logger']) =>
      new TaskIndexRefresh({ store, logger, workFor: async () => undefined, intervalMs: 5 }),
  ],
  [
    'watcher',
    (logger: ReturnType<typeof recorder>['logger']) =>
      new Watcher({
        store,
        logger,
        intervalMs: 50,
        stepMs: 5,
        workFor: async () => undefined,
        announce: async () => undefined,
      }),
  ],
  [
    'daily digest',
    (logger: ReturnType<typeof recorder>['logger']) =>
      new DigestScheduler({ store, logger, intervalMs: 5 } as unknown as DigestDeps),
  ],
  [
    'quiet hours',
    (logger: ReturnType<typeof recorder>['logger']) =>
      new QuietRelease({ store, logger, now: Date.now, intervalMs: 5 }),
  ],
])('the %s logs each failed round, tries again, and never rejects unhandled', async (_, make) => {
  const { warnings, logger } = recorder();
  const part = make(logger);
  part.start();
  await until(() => warnings.length >= 2);
  await part.stop();
  // Let any stray rejection reach the process's handler before looking.
  await new Promise((r) => setTimeout(r, 20));

  expect(warnings.length).toBeGreaterThanOrEqual(2);
  expect(warnings[0]).toMatch(/failed/i);
  expect(warnings[0]).toMatch(/not open/i);
  expect(unhandled).toEqual([]);
});
