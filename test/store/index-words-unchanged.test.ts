/**
 * SQLite's full-text entry of an indexed task is rewritten only when its words change
 * (schema change 2026-11-24-words-unchanged): every `/work list` re-records the tasks it
 * shows, and rewriting unchanged entries was most of that cost. FTS5 keeps each rewrite as
 * new segment data, so its data table is the witness.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openStore, type Store, sqliteDatabase } from '../../src/store/index.js';

const T = 'T_WORDS';
let store: Store | undefined;
let dir = '';
afterEach(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('rewrites a task’s full-text entry only when its words change', async () => {
  dir = mkdtempSync(join(tmpdir(), 'worklink-words-'));
  store = openStore(dir, { secretsKey: Buffer.alloc(32, 7) });
  const db = sqliteDatabase(store)!;
  const segments = () =>
    db.prepare<[], { n: number }>('SELECT count(*) AS n FROM task_index_fts_data').get()!.n;
  const tasks = Array.from({ length: 50 }, (_, i) => ({
    taskId: String(i).padStart(24, '0'),
    projectId: 'p1',
    name: `Task number ${i}`,
  }));
  await store.taskIndex.recordMany(T, tasks, 1_000);
  const before = segments();
  for (let round = 0; round < 5; round++) await store.taskIndex.recordMany(T, tasks, 2_000 + round);
  expect(segments()).toBe(before);
  // A renamed one is rewritten, and found by its new words only.
  await store.taskIndex.recordMany(T, [{ ...tasks[0]!, name: 'Renamed entirely' }], 3_000);
  expect(segments()).toBeGreaterThan(before);
  expect((await store.taskIndex.search(T, 'renamed')).map((t) => t.name)).toEqual([
    'Renamed entirely',
  ]);
  expect(await store.taskIndex.search(T, 'number 0')).toEqual([]);
});
