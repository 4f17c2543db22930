/**
 * The task index on a real SQLite file (search, numbers, my tasks) and its refresh against
 * the embedded service over HTTP: tasks made outside Slack arrive, closed ones are marked
 * done, and reads stay inside the budget, oldest first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskIndexRefresh } from '../../src/sync/task-index-refresh.js';
import { type Harness, startHarness } from '../support/harness.js';

let h: Harness;
let website: string;
beforeAll(async () => {
  h = await startHarness({ connect: true });
  website = h.seed.projects[0]!.projectId;
  await h.worklink.store.channelProjects.link(h.teamId, 'C_WEB', website, h.users.alice.id);
});
afterAll(() => h?.stop());

const index = () => h.worklink.store.taskIndex;

function refresher(budget: number, clock: { now: number }) {
  return new TaskIndexRefresh(
    {
      store: h.worklink.store,
      logger: h.logger,
      now: () => clock.now,
      workFor: async () =>
        h.worklink.deps.workClients.for((await h.worklink.store.connections.get(h.teamId))!),
    },
    budget,
  );
}

describe('refresh', () => {
  it('learns every task of a watched project with its number, then re-reads oldest first', async () => {
    const clock = { now: Date.now() };
    const refresh = refresher(4, clock);
    const first = await refresh.runTeam(h.teamId);
    // Two list reads (open, whole) and the rest of the budget on task reads.
    expect(first).toMatchObject({ listReads: 2, taskReads: 2 });
    const sitemap = (await index().search(h.teamId, 'sitemap'))[0]!;
    expect(sitemap).toMatchObject({ name: 'Draft the sitemap', number: 1, done: false });
    expect((await index().byNumber(h.teamId, website, 3))?.name).toBe('Set up the CMS');

    clock.now += 60_000;
    const second = await refresh.runTeam(h.teamId);
    // Lists are not due again yet: the whole budget re-reads tasks, never-read ones first.
    expect(second).toMatchObject({ listReads: 0, taskReads: 4 });
    const open = (await index().count(h.teamId)).open;
    expect((await index().stalest(h.teamId, open)).every((t) => t.readAt !== undefined)).toBe(true);
    // A read fills in what lists do not say: due date, assignees, priority.
    const read = (await index().search(h.teamId, 'sitemap'))[0]!;
    expect(read.dueDate).toBe('2026-02-15');
    expect(read.assigneeIds).toEqual([h.seed.users[1]!.id]);
  });

  it('sees tasks created and closed outside Slack at the next open-list read', async () => {
    const clock = { now: Date.now() };
    const refresh = refresher(40, clock);
    await refresh.runTeam(h.teamId);
    const made = await h.work.createTask({ projectId: website, name: 'Made in the service' });
    const sitemap = (await index().search(h.teamId, 'sitemap'))[0]!;
    const details = await h.work.getProjectDetails(website);
    const done = details.Status!.find((s) => s.Type === 3)!;
    await h.work.updateTask(sitemap.taskId, { projectId: website, statusId: done._id });

    clock.now += 5 * 60_000;
    await refresh.runTeam(h.teamId);
    expect(await index().get(h.teamId, made.taskId)).toMatchObject({
      done: false,
      name: 'Made in the service',
    });
    expect((await index().get(h.teamId, sitemap.taskId))?.done).toBe(true);
    expect(await index().search(h.teamId, 'sitemap', { openOnly: true })).toEqual([]);
  });
});

describe('search', () => {
  it('matches word prefixes in any order and treats FTS syntax as plain words', async () => {
    const t = 'T_SEARCH';
    await index().recordMany(t, [
      { taskId: 'a'.repeat(24), projectId: 'p1', name: 'Fix the login page', number: 1 },
      { taskId: 'b'.repeat(24), projectId: 'p1', name: 'Login button is blue', number: 2 },
      { taskId: 'c'.repeat(24), projectId: 'p2', name: 'Café menu', number: 1, done: true },
    ]);
    expect((await index().search(t, 'log')).map((x) => x.number)).toHaveLength(2);
    expect((await index().search(t, 'page fix'))[0]?.name).toBe('Fix the login page');
    expect((await index().search(t, 'cafe'))[0]?.name).toBe('Café menu');
    expect(await index().search(t, 'cafe', { openOnly: true })).toEqual([]);
    for (const junk of ['"', '*', 'NEAR(', 'login OR', '-', '']) {
      await expect(index().search(t, junk)).resolves.toBeDefined();
    }
    expect((await index().similar(t, 'p1', 'Fix login form')).map((x) => x.number)).toEqual([1, 2]);
    expect((await index().byNumber(t, 'p2', 1))?.name).toBe('Café menu');
  });
});
