/**
 * Get-task answers of one turn reach the task index in one unit of work, an answer shared by
 * several readers once (src/sync/sighting-batch.ts), against the embedded service over HTTP and a SQLite store on
 * disk: every caller still finds its task in the index once its read returns, and a change a
 * read shows is told once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeenChange, TaskIndexStore } from '../../src/store/index.js';
import { indexWorkClient } from '../../src/sync/task-sightings.js';
import { WorkClient } from '../../src/workapi/client.js';
import { type Harness, startHarness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ connect: true });
});
afterAll(() => h?.stop());

/** The store's task index, counting the units of work of get-task answers. */
function countingIndex() {
  const real = h.worklink.store.taskIndex;
  const batches: number[] = [];
  const index: TaskIndexStore = {
    ...real,
    see: (...a) => {
      batches.push(1);
      return real.see(...a);
    },
    seeMany: (teamId, sightings, now) => {
      batches.push(sightings.length);
      return real.seeMany(teamId, sightings, now);
    },
  };
  return { index, batches };
}

describe('sighting batch', () => {
  it('writes a task read by several at once once; each caller finds it indexed', async () => {
    const { projectId } = h.seed.projects[0]!;
    const tasks = await h.work.listTasks({ projectId });
    expect(tasks.length).toBeGreaterThanOrEqual(3);
    const { index, batches } = countingIndex();
    const told: SeenChange[] = [];
    const work = indexWorkClient(
      new WorkClient({ ...h.worklink.deps.workUrls, apiKey: h.seed.apiKey }),
      h.teamId,
      index,
      () => {},
      (_team, change) => told.push(change),
    );
    // Each task read by three at once (one request: shared reads), as a burst of lists does.
    await Promise.all(
      [...tasks, ...tasks, ...tasks].map(async ({ taskId }) => {
        await work.getTask(taskId);
        // Read whole (readAt set) by the time the caller goes on.
        expect((await index.get(h.teamId, taskId))?.readAt).toBeDefined();
      }),
    );
    // Each task written once (three times before), in at most one unit of work per task.
    expect(batches.reduce((a, b) => a + b, 0)).toBe(tasks.length);
    expect(batches.length).toBeLessThanOrEqual(tasks.length);

    // A change made outside Worklink is told once, however many read it at once.
    const [first] = tasks;
    await h.work.updateTask(first!.taskId, { projectId, name: 'Renamed outside Slack' });
    await Promise.all([work.getTask(first!.taskId), work.getTask(first!.taskId)]);
    expect(told.map((c) => c.after.name)).toEqual(['Renamed outside Slack']);
  });
});
