/**
 * Channel feeds (issue 11, section 3), through signed Slack requests against the embedded
 * service: `/work feed on|off [sync]`; a task created in the linked project — in the channel,
 * from elsewhere in Slack, in the service itself — is posted once as a compact live card;
 * later activity goes in the card's thread and the card itself is updated in place; with
 * sync, a reply in the card's thread becomes a comment, never echoed back.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ACTION } from '../../../src/slack/ui/block-ids.js';
import { FEED_EVENTS } from '../../../src/store/index.js';
import { findTask, serviceView, shown } from '../tasks/helpers.js';
import { replyTs, useFeedHarness } from './feed-harness.js';

const f = useFeedHarness();

const feedOf = (channel: string) => f.h.worklink.store.channelFeeds.get(f.h.teamId, channel);

async function replyTo(text: string, channelId = 'C_GENERAL', userId = f.h.users.alice.id) {
  const res = await f.h.slack.slashCommand(text, { channelId, userId });
  expect(res.status).toBe(200);
  return (await f.h.replyTo(res)).text ?? '';
}

describe('/work feed', () => {
  it('says how to link a channel that has no project, and changes nothing', async () => {
    expect(await replyTo('feed on', 'C_RANDOM')).toContain(
      'This channel is not linked to a project',
    );
    expect(await replyTo('feed on', 'C_RANDOM')).toContain('`/work project link <projectId>`');
    expect(await feedOf('C_RANDOM')).toBeUndefined();
    expect(await replyTo('feed on', 'D_ALICE')).toContain('A direct message has no task feed');
  });

  it('turns on, shows, turns on with sync, refuses nonsense, turns off — announced', async () => {
    expect(await replyTo('feed', 'C_ONBOARDING')).toContain('task feed is *off*');
    await f.h.slack.slashCommand('feed on', { channelId: 'C_ONBOARDING' });
    await f.h.fake.waitForCall(
      'chat.postMessage',
      (c) =>
        c.body.channel === 'C_ONBOARDING' &&
        shown(c.body).includes('turned this channel’s task feed on: new tasks of'),
    );
    expect(await f.h.waitFor(() => feedOf('C_ONBOARDING'))).toMatchObject({ sync: false });
    expect(await replyTo('feed', 'C_ONBOARDING')).toContain(
      'Thread replies become comments: *off*',
    );
    await f.h.slack.slashCommand('feed on sync', { channelId: 'C_ONBOARDING' });
    await f.h.waitFor(async () => (await feedOf('C_ONBOARDING'))?.sync === true);
    expect(await replyTo('feed sideways', 'C_ONBOARDING')).toContain(
      '`sideways` is not a feed setting',
    );
    expect((await feedOf('C_ONBOARDING'))?.sync).toBe(true);
    await f.h.slack.slashCommand('feed off', { channelId: 'C_ONBOARDING' });
    await f.h.waitFor(async () => (await feedOf('C_ONBOARDING')) === undefined);
    expect(await replyTo('feed off', 'C_ONBOARDING')).toContain('already off');
  });

  it('is not turned on where Worklink cannot post, and says how to invite it', async () => {
    f.h.fake.script('chat.postMessage', (body) =>
      body.channel === 'C_GENERAL' ? { ok: false, error: 'not_in_channel' } : undefined,
    );
    try {
      expect(await replyTo('feed on')).toContain('`/invite @Worklink`');
      expect(await feedOf('C_GENERAL')).toBeUndefined();
    } finally {
      f.h.fake.script('chat.postMessage', undefined);
    }
  });
});

describe('a channel with a feed', () => {
  beforeAll(async () => {
    // Everything, assignments included (the default is new tasks, completions and comments).
    await f.h.worklink.store.channelFeeds.enable(
      f.h.teamId,
      'C_GENERAL',
      true,
      f.h.users.alice.id,
      undefined,
      {
        events: [...FEED_EVENTS],
        filters: {},
      },
    );
  });

  it('a task added in the channel: its confirmation card is the feed card, posted once', async () => {
    await f.h.slack.slashCommand('add Feed from here @bob');
    const task = await f.h.waitFor(() => findTask(f.h, f.website, 'Feed from here'));
    const card = await f.feedCard(task.taskId);
    await f.settled(); // the service's event for it comes too, and must not post again
    const cards = f.posts('C_GENERAL', 'Feed from here');
    expect(cards).toHaveLength(1);
    expect(replyTs(cards[0]!)).toBe(card.ts);
    expect(shown(cards[0]!.body)).toContain('<@U_ALICE> created');
  });

  it('a task added elsewhere in Slack, for this project: one card in the channel', async () => {
    await f.h.slack.slashCommand(`add Feed from a DM @carol in:${f.website}`, {
      channelId: 'D_ALICE',
    });
    const task = await f.h.waitFor(() => findTask(f.h, f.website, 'Feed from a DM'));
    const card = await f.feedCard(task.taskId);
    await f.settled();
    const cards = f.posts('C_GENERAL', 'Feed from a DM');
    expect(cards).toHaveLength(1);
    expect(replyTs(cards[0]!)).toBe(card.ts);
    expect(shown(cards[0]!.body)).toMatch(
      /<@U_ALICE> created \*#\d+ Feed from a DM\* for <@U_CAROL>/,
    );
    // Remembered as a live message, so edits reach it.
    expect(
      (await f.h.worklink.store.taskMessages.forTask(f.h.teamId, task.taskId)).some(
        (m) => m.channelId === 'C_GENERAL' && m.ts === card.ts,
      ),
    ).toBe(true);
    // Another project's task is not this channel's.
    await f.h.slack.slashCommand(`add Not for general in:${f.onboarding}`, {
      channelId: 'D_ALICE',
    });
    await f.h.waitFor(() => findTask(f.h, f.onboarding, 'Not for general'));
    await f.settled();
    expect(f.posts('C_GENERAL', 'Not for general')).toEqual([]);
  });

  it('a task made in the service itself: posted after its event, naming its creator', async () => {
    const made = await f.h.work.createTask({
      projectId: f.website,
      name: 'Made in the service',
      taskUsers: [f.h.seed.users.find((u) => u.email.startsWith('dan'))!.id],
    });
    const card = await f.feedCard(made.taskId);
    const [post] = f.posts('C_GENERAL', 'Made in the service');
    expect(replyTs(post!)).toBe(card.ts);
    // The key's owner made it: the service user matched to Slack by e-mail.
    expect(shown(post!.body)).toMatch(
      /<@U_ALICE> created \*#\d+ Made in the service\* for <@U_DAN>/,
    );
    await f.settled();
    expect(f.posts('C_GENERAL', 'Made in the service')).toHaveLength(1);
  });

  it('later activity goes in the card’s thread, never in the channel', async () => {
    await f.h.slack.slashCommand(`add Thread me @bob in:${f.website}`, { channelId: 'D_ALICE' });
    const task = await f.h.waitFor(() => findTask(f.h, f.website, 'Thread me'));
    const card = await f.feedCard(task.taskId);
    const inThread = (text: string) =>
      f.h.fake.waitForCall(
        'chat.postMessage',
        (c) =>
          c.body.channel === 'C_GENERAL' &&
          c.body.thread_ts === card.ts &&
          shown(c.body).includes(text),
      );

    await f.h.slack.slashCommand(`comment ${task.taskId} Looks good & ready`, {
      userId: f.h.users.bob.id,
    });
    expect(shown((await inThread('commented')).body)).toContain(
      '💬 <@U_BOB> commented:\\n>Looks good &amp; ready',
    );

    await f.h.slack.slashCommand(`assign ${task.taskId} <@${f.h.users.carol.id}>`);
    await inThread('👤 <@U_ALICE> assigned <@U_CAROL>.');

    await f.h.slack.slashCommand(`done ${task.taskId}`, { userId: f.h.users.bob.id });
    await inThread('✅ <@U_BOB> completed this task.');
    // Reopen, pressed on the feed card itself.
    await f.h.slack.blockAction(
      { actionId: ACTION.taskReopen, value: task.taskId },
      { message: { type: 'message', ts: card.ts } },
    );
    await inThread('↩️ <@U_ALICE> reopened this task.');
    // Never a new message in the channel about it.
    await f.settled();
    expect(f.posts('C_GENERAL', 'Thread me')).toHaveLength(1);
    expect(
      f.h.fake
        .callsOf('chat.postMessage')
        .filter((c) => c.body.channel === 'C_GENERAL' && !c.body.thread_ts)
        .filter((c) => /commented|assigned|completed|reopened/.test(shown(c.body))),
    ).toEqual([]);
  });

  it('the feed card is updated in place when the task changes', async () => {
    await f.h.slack.slashCommand(`add Update me @bob in:${f.website}`, { channelId: 'D_ALICE' });
    const task = await f.h.waitFor(() => findTask(f.h, f.website, 'Update me'));
    const card = await f.feedCard(task.taskId);
    await f.h.slack.slashCommand(`done ${task.taskId}`, { userId: f.h.users.bob.id });
    const update = await f.h.fake.waitForCall(
      'chat.update',
      (c) => c.body.channel === 'C_GENERAL' && c.body.ts === card.ts,
    );
    expect(shown(update.body.blocks)).toContain('✅ <@U_ALICE> created');
    expect(shown(update.body.blocks)).toContain('Reopen');
    await f.settled();
    expect(f.posts('C_GENERAL', 'Update me')).toHaveLength(1);
  });
});

describe('a feed with sync', () => {
  async function comments(taskId: string) {
    const { updated } = await serviceView(f.h, taskId);
    return (updated.Comments ?? []).filter((c) => c.Type === 1).map((c) => c.Comment);
  }
  const inThread = (
    channel: string,
    ts: string,
    user: string,
    more: Record<string, unknown> = {},
  ) =>
    f.h.slack.event({
      type: 'message',
      channel_type: 'channel',
      channel,
      user,
      ts: `${Date.now() / 1000}`,
      thread_ts: ts,
      ...more,
    });

  it('a person’s reply in the card’s thread becomes a comment with their name, once', async () => {
    expect((await feedOf('C_GENERAL'))?.sync).toBe(true);
    await f.h.slack.slashCommand(`add Reply to me in:${f.website}`, { channelId: 'D_ALICE' });
    const task = await f.h.waitFor(() => findTask(f.h, f.website, 'Reply to me'));
    const card = await f.feedCard(task.taskId);
    const replyTs = `${Date.now() / 1000}`;
    await inThread('C_GENERAL', card.ts, f.h.users.carol.id, {
      text: 'Done by Friday',
      ts: replyTs,
    });
    await f.h.waitFor(async () => (await comments(task.taskId)).length === 1);
    expect(await comments(task.taskId)).toEqual(['Done by Friday\n\n— Carol Chen (via Slack)']);
    // The reply gets a sign that it became a comment: Worklink's 📝 reaction on it.
    const reaction = await f.h.fake.waitForCall('reactions.add');
    expect(reaction.body).toMatchObject({ channel: 'C_GENERAL', timestamp: replyTs, name: 'memo' });
    // Worklink's own message in that thread is never taken back.
    await inThread('C_GENERAL', card.ts, 'U_WORKLINK', { bot_id: 'B_WORKLINK', text: 'Noted' });
    await f.settled();
    expect(await comments(task.taskId)).toHaveLength(1);
    // …and the comment is not echoed into the thread it came from.
    expect(
      f.h.fake.callsOf('chat.postMessage').filter((c) => c.body.thread_ts === card.ts),
    ).toEqual([]);
  });
});
