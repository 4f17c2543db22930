/**
 * Channel feeds against the hosted-style fake (no events: the watcher finds what is made in
 * its web app), through signed Slack requests: a found task becomes one feed card, a burst
 * found in one look becomes 5 cards and a summary; with `sync`, a person's reply in a card's
 * thread becomes a comment signed with their Slack name, echoed in the other feed channels'
 * threads but never back into its own, and Worklink's own replies, apps' messages, edits and
 * plain channel messages are never taken.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FEED_EVENTS } from '../../src/store/index.js';
import type { RecordedCall } from '../support/fake-slack.js';
import { waitFor } from '../support/harness.js';
import { type HostedHarness, startHostedHarness } from '../support/hosted-harness.js';

let h: HostedHarness;

const shown = (x: unknown) => JSON.stringify(x);
const replyTs = (c: RecordedCall) => (c.reply as { ts?: string } | undefined)?.ts;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  h = await startHostedHarness({ connect: true, pollSeconds: 1 });
  h.worklink.parts.notifications.tuning.eventGraceMs = 100;
  const { channelProjects, channelFeeds } = h.worklink.store;
  const alice = h.users.alice.id;
  await channelProjects.link(h.teamId, 'C_GENERAL', h.hosted.projects.website, alice);
  await channelProjects.link(h.teamId, 'C_SECOND', h.hosted.projects.website, alice);
  await channelProjects.link(h.teamId, 'C_ONBOARDING', h.hosted.projects.onboarding, alice);
  // Everything, assignments included (the default is new tasks, completions and comments).
  const all = { events: [...FEED_EVENTS], filters: {} };
  await channelFeeds.enable(h.teamId, 'C_GENERAL', true, alice, undefined, all);
  await channelFeeds.enable(h.teamId, 'C_SECOND', false, alice, undefined, all);
  await channelFeeds.enable(h.teamId, 'C_ONBOARDING', false, alice);
  // The watcher's first look only records what is there.
  await waitFor(async () => (await h.worklink.store.watchState.looks(h.teamId)).length >= 2, {
    timeoutMs: 5_000,
  });
});
afterAll(() => h?.stop());
beforeEach(() => h.fake.reset());

const topPosts = (channel: string) =>
  h.fake.callsOf('chat.postMessage').filter((c) => c.body.channel === channel && !c.body.thread_ts);

const cardOf = (taskId: string, channel: string) =>
  waitFor(async () =>
    (await h.worklink.store.channelFeeds.cardsOf(h.teamId, taskId)).find(
      (c) => c.channelId === channel,
    ),
  );

async function settled() {
  await pause(300);
  await h.worklink.parts.activity.idle();
  await h.worklink.parts.feeds.idle();
}

describe('tasks the watcher finds', () => {
  it('a task made in the web app is posted once in each feed of its project', async () => {
    const taskId = h.hosted.addTask({
      projectId: h.hosted.projects.website,
      name: 'Made in the web app',
      assignees: [h.hosted.users.bob],
      createdBy: h.hosted.users.carol,
    });
    const general = await cardOf(taskId, 'C_GENERAL');
    await cardOf(taskId, 'C_SECOND');
    const [post] = topPosts('C_GENERAL').filter((c) =>
      shown(c.body).includes('Made in the web app'),
    );
    expect(replyTs(post!)).toBe(general.ts);
    expect(shown(post!.body)).toMatch(
      /<@U_CAROL> created \*#\d+ Made in the web app\* for <@U_BOB>/,
    );
    // Later looks see it again: still one card.
    await pause(2_200);
    await settled();
    expect(
      topPosts('C_GENERAL').filter((c) => shown(c.body).includes('Made in the web app')),
    ).toHaveLength(1);
    expect(topPosts('C_ONBOARDING')).toEqual([]);
  });

  it('8 found in one look: 5 cards, then one summary of the other 3', async () => {
    const names = Array.from({ length: 8 }, (_, i) => `Found together ${i + 1}`);
    for (const name of names) h.hosted.addTask({ projectId: h.hosted.projects.onboarding, name });
    const summary = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_ONBOARDING' && shown(c.body).includes('more new task'),
      8_000,
    );
    await settled();
    const cards = topPosts('C_ONBOARDING').filter((c) => shown(c.body).includes('created'));
    expect(cards).toHaveLength(5);
    const edits = h.fake
      .callsOf('chat.update')
      .filter((c) => c.body.channel === 'C_ONBOARDING' && c.body.ts === replyTs(summary));
    const last = shown(edits.at(-1)?.body ?? summary.body);
    expect(last).toContain('3 more new tasks in *Customer onboarding*');
    const listed = names.filter((n) => last.includes(n));
    const carded = names.filter((n) => cards.some((c) => shown(c.body).includes(n)));
    expect([...listed, ...carded].sort()).toEqual([...names].sort());
    expect(listed).toHaveLength(3);
  });
});

describe('/work feed on sync', () => {
  let taskId: string;
  let general: string;
  let second: string;

  /** A message event as Slack sends it for the channels Worklink is in. */
  const message = (event: Record<string, unknown>) =>
    h.slack.event({
      type: 'message',
      channel_type: 'channel',
      ts: `${Date.now() / 1000}`,
      ...event,
    });

  beforeAll(async () => {
    await h.slack.slashCommand('add Sync me @bob');
    taskId = await waitFor(
      () => [...h.hosted.tasks.values()].find((t) => t.name === 'Sync me')?.id,
    );
    general = (await cardOf(taskId, 'C_GENERAL')).ts;
    second = (await cardOf(taskId, 'C_SECOND')).ts;
    await settled();
  });

  it('a person’s thread reply becomes a comment with their name; not echoed into its thread', async () => {
    const before = h.hosted.comments.length;
    const res = await message({
      channel: 'C_GENERAL',
      user: h.users.bob.id,
      text: 'I will take it &amp; ship <@U0CAROL|carol> a build',
      thread_ts: general,
    });
    expect(res.status).toBe(200);
    await waitFor(() => h.hosted.comments.length === before + 1);
    expect(h.hosted.comments.at(-1)).toEqual({
      taskId,
      content: 'I will take it & ship @carol a build\n\n— Bob Brown (via Slack)',
      createdBy: h.hosted.users.alice,
    });
    // The other feed channel hears of it in its thread; its own thread does not.
    const echo = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_SECOND' && c.body.thread_ts === second,
    );
    expect(shown(echo.body)).toContain('💬 <@U_BOB> commented:');
    await settled();
    expect(h.fake.callsOf('chat.postMessage').filter((c) => c.body.thread_ts === general)).toEqual(
      [],
    );

    // Worklink's own reply (that echo), delivered back as Slack does: never synced.
    await message({
      channel: 'C_SECOND',
      user: 'U_WORKLINK',
      bot_id: 'B_WORKLINK',
      text: shown(echo.body.text),
      thread_ts: second,
    });
    await message({
      channel: 'C_GENERAL',
      user: 'U_WORKLINK',
      bot_id: 'B_WORKLINK',
      text: 'A reply Worklink wrote',
      thread_ts: general,
    });
    await settled();
    expect(h.hosted.comments.length).toBe(before + 1);
  });

  it('assignment and completion go in the thread of every feed card of the task', async () => {
    await h.slack.slashCommand(`assign ${taskId} <@${h.users.dan.id}>`);
    await h.slack.slashCommand(`done ${taskId}`, { userId: h.users.bob.id });
    for (const [channel, ts] of [
      ['C_GENERAL', general],
      ['C_SECOND', second],
    ] as const) {
      const replies = () =>
        h.fake
          .callsOf('chat.postMessage')
          .filter((c) => c.body.channel === channel && c.body.thread_ts === ts)
          .map((c) => String(c.body.text));
      await waitFor(() => replies().length === 2 || undefined);
      expect(replies().sort()).toEqual(
        ['👤 <@U_ALICE> assigned <@U_DAN>.', '✅ <@U_BOB> completed this task.'].sort(),
      );
    }
    expect(topPosts('C_GENERAL').filter((c) => /assigned|completed/.test(shown(c.body)))).toEqual(
      [],
    );
  });

  it('takes nothing else: apps, edits, channel messages, other threads, feeds without sync', async () => {
    const before = h.hosted.comments.length;
    await message({
      channel: 'C_GENERAL',
      user: 'U_OTHERAPP',
      bot_id: 'B_OTHER',
      text: 'bot',
      thread_ts: general,
    });
    await message({
      channel: 'C_GENERAL',
      subtype: 'message_changed',
      message: { user: h.users.bob.id, text: 'edited', thread_ts: general },
    });
    await message({ channel: 'C_GENERAL', user: h.users.bob.id, text: 'not in a thread' });
    await message({
      channel: 'C_GENERAL',
      user: h.users.bob.id,
      text: 'another thread',
      thread_ts: '1700000000.000001',
    });
    // C_SECOND's feed has no sync.
    await message({
      channel: 'C_SECOND',
      user: h.users.bob.id,
      text: 'no sync here',
      thread_ts: second,
    });
    await settled();
    expect(h.hosted.comments.length).toBe(before);
    expect(h.fake.callsOf('chat.postEphemeral')).toEqual([]);
  });

  it('a reply that cannot be posted is answered to its author, in the thread', async () => {
    h.hosted.proxyFailures(6, 502);
    await message({
      channel: 'C_GENERAL',
      user: h.users.carol.id,
      text: 'Lost?',
      thread_ts: general,
    });
    const told = await h.fake.waitForCall('chat.postEphemeral', undefined, 8_000);
    expect(told.body).toMatchObject({ channel: 'C_GENERAL', thread_ts: general, user: 'U_CAROL' });
    expect(shown(told.body.text)).toContain('comment');
  });
});
