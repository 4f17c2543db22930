/**
 * Changes made in the hosted service's own web app reach Slack without events (issue 22,
 * section 1), against the hosted-style fake with polling: completing, reopening, renaming,
 * re-dating and re-assigning a task there is seen by the watcher's lists and the task index's
 * re-reads, and told once — a reply in the feed card's thread ("in the service": the hosted
 * service names nobody), the card updated in place, the creator's completion DM, the new
 * assignee's DM — also when looked at again, and across a restart on the same files.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FEED_EVENTS } from '../../src/store/index.js';
import { waitFor } from '../support/harness.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

let h: HostedHarness;
let taskId: string;
let cardTs: string;

const shown = (x: unknown) => JSON.stringify(x);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const replies = (harness = h) =>
  harness.fake
    .callsOf('chat.postMessage')
    .filter((c) => c.body.channel === 'C_GENERAL' && c.body.thread_ts === cardTs)
    .map((c) => String(c.body.text));
const reply = (text: string, harness = h) =>
  harness.fake.waitForCall(
    'chat.postMessage',
    (c) => c.body.thread_ts === cardTs && String(c.body.text).includes(text),
    10_000,
  );
const dmsTo = (user: string, text: string) =>
  h.fake
    .callsOf('chat.postMessage')
    .filter((c) => c.body.channel === user && shown(c.body).includes(text));
const hostedTask = () => h.hosted.tasks.get(taskId)!;

/** A few more looks, then everything told has been told. */
async function settled(harness = h) {
  await pause(2_500);
  await harness.worklink.parts.activity.idle();
  await harness.worklink.parts.feeds.idle();
}

beforeAll(async () => {
  h = await startHostedHarness({ connect: true, pollSeconds: 1 });
  h.worklink.parts.notifications.tuning.eventGraceMs = 100;
  const website = h.hosted.projects.website;
  await h.worklink.store.channelProjects.link(h.teamId, 'C_GENERAL', website, 'U_ALICE');
  await h.worklink.store.channelFeeds.enable(h.teamId, 'C_GENERAL', false, 'U_ALICE', undefined, {
    events: [...FEED_EVENTS],
    filters: {},
  });
  await waitFor(async () => (await h.worklink.store.watchState.looks(h.teamId)).length >= 1, {
    timeoutMs: 5_000,
  });
  await h.slack.slashCommand('add Polled task @bob');
  taskId = await waitFor(
    () => [...h.hosted.tasks.values()].find((t) => t.name === 'Polled task')?.id,
  );
  cardTs = (
    await waitFor(async () => (await h.worklink.store.channelFeeds.cardsOf(h.teamId, taskId))[0])
  ).ts;
  await h.fake.waitForCall('chat.postMessage', (c) => c.body.channel === 'U_BOB');
  await settled();
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());

describe('a task changed in the hosted web app (no events, polling)', () => {
  it('completion: one reply, the card updated, the creator DMed once', async () => {
    h.hosted.completeTask(taskId);
    expect(await reply('completed this task')).toBeDefined();
    expect(replies()).toEqual(['✅ Someone in the service completed this task.']);
    await h.fake.waitForCall(
      'chat.update',
      (c) => c.body.ts === cardTs && shown(c.body.blocks).includes('Reopen'),
      15_000,
    );
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'U_ALICE' && shown(c.body).includes('completed'),
      10_000,
    );
    await settled();
    expect(replies().filter((t) => t.includes('completed'))).toHaveLength(1);
    expect(dmsTo('U_ALICE', 'completed')).toHaveLength(1);
  });

  it('reopening and renaming, seen in the open list: one reply each', async () => {
    const t = hostedTask();
    const project = h.hosted.projectsById.get(t.projectId)!;
    t.done = false;
    t.statusId = project.statuses.find((s) => s.type === 1)!.id;
    await reply('reopened this task');
    t.name = 'Polled task, renamed';
    await reply('renamed to *Polled task, renamed*');
    await settled();
    expect(replies().filter((x) => x.includes('reopened'))).toHaveLength(1);
    expect(replies().filter((x) => x.includes('renamed'))).toHaveLength(1);
  });

  it('a new date and assignee, seen by the re-reads: told once, the new assignee DMed', async () => {
    const t = hostedTask();
    t.dueDate = '2026-12-24';
    t.assignees = [h.hosted.users.carol];
    await h.worklink.parts.indexRefresh.runTeam(h.teamId);
    await reply('assigned <@U_CAROL>');
    const changed = await reply('due Thu, Dec 24, 2026');
    expect(changed.body.text).toContain('removed <@U_BOB>');
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'U_CAROL' && shown(c.body).includes('Polled task, renamed'),
      10_000,
    );
    // Read again: nothing more.
    await h.worklink.parts.indexRefresh.runTeam(h.teamId);
    await settled();
    expect(replies().filter((x) => x.includes('assigned'))).toHaveLength(1);
    expect(replies().filter((x) => x.includes('Dec 24'))).toHaveLength(1);
    expect(dmsTo('U_CAROL', 'Polled task, renamed')).toHaveLength(1);
  });
});

describe('across a restart', () => {
  it('a change made while Worklink was down is told once after it; older ones never again', async () => {
    const { dataDir } = h;
    await h.worklink.stop();
    hostedTask().name = 'Renamed while down';
    const again = await startHostedHarness({ dataDir, fake: h.hosted, pollSeconds: 1 });
    try {
      again.worklink.parts.notifications.tuning.eventGraceMs = 100;
      await reply('renamed to *Renamed while down*', again);
      await again.worklink.parts.indexRefresh.runTeam(again.teamId);
      await settled(again);
      expect(replies(again)).toEqual([
        '✏️ Someone in the service changed this task: renamed to *Renamed while down*.',
      ]);
    } finally {
      await again.stop();
    }
  });
});
