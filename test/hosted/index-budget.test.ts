/**
 * WORK_INDEX_READS_PER_MINUTE: the app started from the environment against the hosted-style
 * fake refreshes its task index with exactly that many service reads a minute (counted by the
 * fake, per route), lists first, on a controlled clock; without the setting, the default 40.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { READS_PER_MINUTE } from '../../src/sync/task-index-refresh.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

let h: HostedHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** The app on a hosted fake with `extra` open tasks in a linked project; its clock is `clock`. */
async function start(clock: { now: number }, env: Record<string, string>, extra: number) {
  h = await startHostedHarness({ connect: true, clock: () => clock.now, env });
  const { hosted } = h;
  await h.worklink.store.channelProjects.link(
    h.teamId,
    'C_WEB',
    hosted.projects.website,
    h.users.alice.id,
  );
  for (let i = 0; i < extra; i++) {
    hosted.addTask({ projectId: hosted.projects.website, name: `Budget task ${i}` });
  }
  return h;
}

/** One refresh round a minute for `minutes` minutes; the fake's list and task reads per round. */
async function rounds(app: HostedHarness, clock: { now: number }, minutes: number) {
  const out: { lists: number; reads: number }[] = [];
  for (let m = 0; m < minutes; m++) {
    app.hosted.resetCalls();
    await app.worklink.parts.indexRefresh.runTeam(app.teamId);
    out.push({ lists: app.hosted.calls('GET /task'), reads: app.hosted.calls('GET /task/:id') });
    clock.now += 60_000;
  }
  return out;
}

describe('the task index refresh budget', () => {
  it('reads exactly WORK_INDEX_READS_PER_MINUTE a minute, lists first', async () => {
    const clock = { now: Date.parse('2026-03-02T09:00:00Z') };
    const app = await start(clock, { WORK_INDEX_READS_PER_MINUTE: '7' }, 30);
    const seen = await rounds(app, clock, 6);
    // Minute 0: the open and whole lists, then 5 task reads; then 7 task reads a minute; at
    // minute 5 the open list is due again.
    expect(seen).toEqual([
      { lists: 2, reads: 5 },
      { lists: 0, reads: 7 },
      { lists: 0, reads: 7 },
      { lists: 0, reads: 7 },
      { lists: 0, reads: 7 },
      { lists: 1, reads: 6 },
    ]);
  });

  it('reads the default 40 a minute without the setting', async () => {
    const clock = { now: Date.parse('2026-03-02T09:00:00Z') };
    const app = await start(clock, {}, 60);
    const seen = await rounds(app, clock, 2);
    expect(READS_PER_MINUTE).toBe(40);
    expect(seen).toEqual([
      { lists: 2, reads: 38 },
      { lists: 0, reads: 40 },
    ]);
  });

  it('logs a failed read at debug with the reason, and reads that task again next round', async () => {
    const clock = { now: Date.parse('2026-03-02T09:00:00Z') };
    const app = await start(clock, { WORK_INDEX_READS_PER_MINUTE: '3' }, 0);
    await rounds(app, clock, 1); // the two lists and one read
    const next = (await app.worklink.store.taskIndex.stalest(app.teamId, 1))[0]!;
    // The client retries a 502 twice: every attempt of this round's three reads fails.
    app.hosted.proxyFailures(9);
    await rounds(app, clock, 1);
    const line = app.logs.find((l) => l.includes(`reading ${next.taskId} failed`));
    expect(line).toContain('read again later');
    expect(
      (await app.worklink.store.taskIndex.get(app.teamId, next.taskId))?.readAt,
    ).toBeUndefined();
    await rounds(app, clock, 1);
    expect((await app.worklink.store.taskIndex.get(app.teamId, next.taskId))?.readAt).toBeDefined();
  });
});
