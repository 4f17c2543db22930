/**
 * Channel feeds (issue 11, section 3), through signed Slack requests against the embedded
 * service: `/work feed on|off [sync]`; a task created in the linked project — in the channel,
 * from elsewhere in Slack, in the service itself — is posted once as a compact live card;
 * later activity goes in the card's thread and the card itself is updated in place; a burst of
 * more than 5 new tasks a minute becomes one summary (fake clock); a task made from a message
 * answers in that message's thread.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TASK_ACTION } from '../../../src/slack/tasks/form/view.js';
import { ACTION, SHORTCUT } from '../../../src/slack/ui/block-ids.js';
import type { RecordedCall } from '../../support/fake-slack.js';
import { type Harness, startHarness } from '../../support/harness.js';
import {
  answeredView,
  findTask,
  linkChannel,
  serviceView,
  shown,
  stateFor,
  type ViewJson,
  viewOf,
} from '../tasks/helpers.js';

let h: Harness;
let website: string;
let onboarding: string;
let now = Date.parse('2026-11-23T15:00:00Z');
const EVENTS_SECRET = 'feeds-test-events-secret';

beforeAll(async () => {
  h = await startHarness({
    connect: true,
    clock: () => now,
    configure: (c) => ({ ...c, workEventsSecret: EVENTS_SECRET }),
  });
  // The service tells of every task made in it, from Slack or not (as a subscribed one does).
  h.service.setEventsSubscriber({ url: `${h.worklink.url}/work/events`, secret: EVENTS_SECRET });
  // Tasks made outside Slack wait this long for the Slack path (shortened for tests).
  h.worklink.deps.notifications.tuning.eventGraceMs = 300;
  website = await linkChannel(h, 0, 'C_GENERAL');
  onboarding = await linkChannel(h, 1, 'C_ONBOARDING');
});
afterAll(() => h?.stop());
beforeEach(() => {
  h.fake.reset();
  // Each test starts a minute later: the burst rule counts only its own posts.
  now += 61_000;
});

const feedOf = (channel: string) => h.worklink.store.channelFeeds.get(h.teamId, channel);

async function replyTo(text: string, channelId = 'C_GENERAL', userId = h.users.alice.id) {
  const res = await h.slack.slashCommand(text, { channelId, userId });
  expect(res.status).toBe(200);
  return (await h.replyTo(res)).text ?? '';
}

/** Waits for every activity listener (feeds included), and the events' grace after it. */
async function settled() {
  await new Promise((r) => setTimeout(r, 450));
  await h.worklink.deps.activity.idle();
  await h.worklink.deps.feeds.idle();
}

const posts = (channel: string, name: string): RecordedCall[] =>
  h.fake
    .callsOf('chat.postMessage')
    .filter((c) => c.body.channel === channel && !c.body.thread_ts && shown(c.body).includes(name));

const replyTs = (c: RecordedCall) => (c.reply as { ts?: string } | undefined)?.ts;

/** The feed card of the task in `channel` (its ts), once posted. */
async function feedCard(taskId: string, channel = 'C_GENERAL') {
  return h.waitFor(async () =>
    (await h.worklink.store.channelFeeds.cardsOf(h.teamId, taskId)).find(
      (c) => c.channelId === channel,
    ),
  );
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
    await h.slack.slashCommand('feed on', { channelId: 'C_ONBOARDING' });
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) =>
        c.body.channel === 'C_ONBOARDING' &&
        shown(c.body).includes('turned this channel’s task feed on: new tasks of'),
    );
    expect(await h.waitFor(() => feedOf('C_ONBOARDING'))).toMatchObject({ sync: false });
    expect(await replyTo('feed', 'C_ONBOARDING')).toContain(
      'Thread replies become comments: *off*',
    );
    await h.slack.slashCommand('feed on sync', { channelId: 'C_ONBOARDING' });
    await h.waitFor(async () => (await feedOf('C_ONBOARDING'))?.sync === true);
    expect(await replyTo('feed sideways', 'C_ONBOARDING')).toContain(
      '`sideways` is not a feed setting',
    );
    expect((await feedOf('C_ONBOARDING'))?.sync).toBe(true);
    await h.slack.slashCommand('feed off', { channelId: 'C_ONBOARDING' });
    await h.waitFor(async () => (await feedOf('C_ONBOARDING')) === undefined);
    expect(await replyTo('feed off', 'C_ONBOARDING')).toContain('already off');
  });

  it('is not turned on where Worklink cannot post, and says how to invite it', async () => {
    h.fake.script('chat.postMessage', (body) =>
      body.channel === 'C_GENERAL' ? { ok: false, error: 'not_in_channel' } : undefined,
    );
    try {
      expect(await replyTo('feed on')).toContain('`/invite @Worklink`');
      expect(await feedOf('C_GENERAL')).toBeUndefined();
    } finally {
      h.fake.script('chat.postMessage', undefined);
    }
  });
});

describe('a channel with a feed', () => {
  beforeAll(async () => {
    await h.worklink.store.channelFeeds.enable(h.teamId, 'C_GENERAL', true, h.users.alice.id);
  });

  it('a task added in the channel: its confirmation card is the feed card, posted once', async () => {
    await h.slack.slashCommand('add Feed from here @bob');
    const task = await h.waitFor(() => findTask(h, website, 'Feed from here'));
    const card = await feedCard(task.taskId);
    await settled(); // the service's event for it comes too, and must not post again
    const cards = posts('C_GENERAL', 'Feed from here');
    expect(cards).toHaveLength(1);
    expect(replyTs(cards[0]!)).toBe(card.ts);
    expect(shown(cards[0]!.body)).toContain('<@U_ALICE> created');
  });

  it('a task added elsewhere in Slack, for this project: one card in the channel', async () => {
    await h.slack.slashCommand(`add Feed from a DM @carol in:${website}`, { channelId: 'D_ALICE' });
    const task = await h.waitFor(() => findTask(h, website, 'Feed from a DM'));
    const card = await feedCard(task.taskId);
    await settled();
    const cards = posts('C_GENERAL', 'Feed from a DM');
    expect(cards).toHaveLength(1);
    expect(replyTs(cards[0]!)).toBe(card.ts);
    expect(shown(cards[0]!.body)).toMatch(/<@U_ALICE> created \*Feed from a DM\* for <@U_CAROL>/);
    // Remembered as a live message, so edits reach it.
    expect(
      (await h.worklink.store.taskMessages.forTask(h.teamId, task.taskId)).some(
        (m) => m.channelId === 'C_GENERAL' && m.ts === card.ts,
      ),
    ).toBe(true);
    // Another project's task is not this channel's.
    await h.slack.slashCommand(`add Not for general in:${onboarding}`, { channelId: 'D_ALICE' });
    await h.waitFor(() => findTask(h, onboarding, 'Not for general'));
    await settled();
    expect(posts('C_GENERAL', 'Not for general')).toEqual([]);
  });

  it('a task made in the service itself: posted after its event, naming its creator', async () => {
    const made = await h.work.createTask({
      projectId: website,
      name: 'Made in the service',
      taskUsers: [h.seed.users.find((u) => u.email.startsWith('dan'))!.id],
    });
    const card = await feedCard(made.taskId);
    const [post] = posts('C_GENERAL', 'Made in the service');
    expect(replyTs(post!)).toBe(card.ts);
    // The key's owner made it: the service user matched to Slack by e-mail.
    expect(shown(post!.body)).toMatch(/<@U_ALICE> created \*Made in the service\* for <@U_DAN>/);
    await settled();
    expect(posts('C_GENERAL', 'Made in the service')).toHaveLength(1);
  });

  it('later activity goes in the card’s thread, never in the channel', async () => {
    await h.slack.slashCommand(`add Thread me @bob in:${website}`, { channelId: 'D_ALICE' });
    const task = await h.waitFor(() => findTask(h, website, 'Thread me'));
    const card = await feedCard(task.taskId);
    const inThread = (text: string) =>
      h.fake.waitForCall(
        'chat.postMessage',
        (c) =>
          c.body.channel === 'C_GENERAL' &&
          c.body.thread_ts === card.ts &&
          shown(c.body).includes(text),
      );

    await h.slack.slashCommand(`comment ${task.taskId} Looks good & ready`, {
      userId: h.users.bob.id,
    });
    expect(shown((await inThread('commented')).body)).toContain(
      '💬 <@U_BOB> commented:\\n>Looks good &amp; ready',
    );

    await h.slack.slashCommand(`assign ${task.taskId} <@${h.users.carol.id}>`);
    await inThread('👤 <@U_ALICE> assigned <@U_CAROL>.');

    await h.slack.slashCommand(`done ${task.taskId}`, { userId: h.users.bob.id });
    await inThread('✅ <@U_BOB> completed this task.');
    // Reopen, pressed on the feed card itself.
    await h.slack.blockAction(
      { actionId: ACTION.taskReopen, value: task.taskId },
      { message: { type: 'message', ts: card.ts } },
    );
    await inThread('↩️ <@U_ALICE> reopened this task.');
    // Never a new message in the channel about it.
    await settled();
    expect(posts('C_GENERAL', 'Thread me')).toHaveLength(1);
    expect(
      h.fake
        .callsOf('chat.postMessage')
        .filter((c) => c.body.channel === 'C_GENERAL' && !c.body.thread_ts)
        .filter((c) => /commented|assigned|completed|reopened/.test(shown(c.body))),
    ).toEqual([]);
  });

  it('the feed card is updated in place when the task changes', async () => {
    await h.slack.slashCommand(`add Update me @bob in:${website}`, { channelId: 'D_ALICE' });
    const task = await h.waitFor(() => findTask(h, website, 'Update me'));
    const card = await feedCard(task.taskId);
    await h.slack.slashCommand(`done ${task.taskId}`, { userId: h.users.bob.id });
    const update = await h.fake.waitForCall(
      'chat.update',
      (c) => c.body.channel === 'C_GENERAL' && c.body.ts === card.ts,
    );
    expect(shown(update.body.blocks)).toContain('✅ <@U_ALICE> created');
    expect(shown(update.body.blocks)).toContain('Reopen');
    await settled();
    expect(posts('C_GENERAL', 'Update me')).toHaveLength(1);
  });
});

describe('a feed with sync', () => {
  async function comments(taskId: string) {
    const { updated } = await serviceView(h, taskId);
    return (updated.Comments ?? []).filter((c) => c.Type === 1).map((c) => c.Comment);
  }
  const inThread = (
    channel: string,
    ts: string,
    user: string,
    more: Record<string, unknown> = {},
  ) =>
    h.slack.event({
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
    await h.slack.slashCommand(`add Reply to me in:${website}`, { channelId: 'D_ALICE' });
    const task = await h.waitFor(() => findTask(h, website, 'Reply to me'));
    const card = await feedCard(task.taskId);
    await inThread('C_GENERAL', card.ts, h.users.carol.id, { text: 'Done by Friday' });
    await h.waitFor(async () => (await comments(task.taskId)).length === 1);
    expect(await comments(task.taskId)).toEqual(['Done by Friday\n\n— Carol Chen (via Slack)']);
    // Worklink's own message in that thread is never taken back.
    await inThread('C_GENERAL', card.ts, 'U_WORKLINK', { bot_id: 'B_WORKLINK', text: 'Noted' });
    await settled();
    expect(await comments(task.taskId)).toHaveLength(1);
    // …and the comment is not echoed into the thread it came from.
    expect(h.fake.callsOf('chat.postMessage').filter((c) => c.body.thread_ts === card.ts)).toEqual(
      [],
    );
  });
});

describe('a burst of new tasks', () => {
  beforeAll(async () => {
    await h.worklink.store.channelFeeds.enable(h.teamId, 'C_ONBOARDING', false, h.users.alice.id);
  });

  it('20 creates in a minute: 5 cards, then one summary edited to list the other 15', async () => {
    const names = Array.from(
      { length: 20 },
      (_, i) => `Burst task ${String(i + 1).padStart(2, '0')}`,
    );
    const answers: string[] = [];
    for (const name of names) {
      const res = await h.slack.slashCommand(`add ${name}`, { channelId: 'C_ONBOARDING' });
      if (answers.length >= 5) answers.push((await h.replyTo(res)).text ?? '');
      else answers.push('');
      now += 1_000; // 20 s in all: one minute's burst
    }
    await settled();
    const top = h.fake
      .callsOf('chat.postMessage')
      .filter((c) => c.body.channel === 'C_ONBOARDING' && !c.body.thread_ts);
    const cards = top.filter((c) => shown(c.body).includes('created'));
    expect(cards.map((c) => names.find((n) => shown(c.body).includes(n)))).toEqual(
      names.slice(0, 5),
    );
    const summaries = top.filter((c) => shown(c.body).includes('more new task'));
    expect(summaries).toHaveLength(1);
    // The summary as it reads now: the first post, then its edits.
    const ts = replyTs(summaries[0]!);
    const edits = h.fake
      .callsOf('chat.update')
      .filter((c) => c.body.channel === 'C_ONBOARDING' && c.body.ts === ts);
    const last = edits.at(-1)?.body ?? summaries[0]!.body;
    expect(shown(last)).toContain('15 more new tasks in *Customer onboarding*');
    for (const name of names.slice(5)) expect(shown(last)).toContain(name);
    for (const name of names.slice(0, 5)) expect(shown(last)).not.toContain(name);
    // Their authors are told where their task went.
    for (const answer of answers.slice(5)) {
      expect(answer).toContain('It is listed in this channel’s summary of new tasks.');
    }

    // A minute later the channel is quiet again: a new task gets its own card.
    now += 61_000;
    await h.slack.slashCommand('add After the burst', { channelId: 'C_ONBOARDING' });
    await h.fake.waitForCall(
      'chat.postMessage',
      (c) =>
        c.body.channel === 'C_ONBOARDING' && shown(c.body).includes('created *After the burst*'),
    );
  });
});

describe('a task made from a message', () => {
  it('answers in the message’s thread: "created … for @bob"', async () => {
    const messageTs = '1700000000.000777';
    const res = await h.slack.messageShortcut(SHORTCUT.createTaskFromMessage, {
      ts: messageTs,
      text: 'The footer overlaps on phones',
      user: h.users.bob.id,
    });
    const open = await h.fake.waitForCall('views.open', (c) => c.body.trigger_id === res.triggerId);
    const id = (await answeredView(h, open)).id;
    const update = await h.fake.waitForCall('views.update', (c) => c.body.view_id === id);
    const form = { ...viewOf(update), id } as ViewJson;
    const bob = h.seed.users.find((u) => u.email.startsWith('bob'))!.id;
    await h.slack.viewSubmission({
      callbackId: form.callback_id!,
      id: form.id,
      privateMetadata: form.private_metadata,
      values: stateFor(form, { [TASK_ACTION.assignees]: [bob] }),
    });
    const answer = await h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_GENERAL' && c.body.thread_ts === messageTs,
    );
    expect(shown(answer.body)).toMatch(
      /<@U_ALICE> created \*The footer overlaps on phones\* for <@U_BOB>/,
    );
    const task = (await findTask(h, website, 'The footer overlaps on phones'))!;
    // It is a live message too: remembered with the task.
    expect(
      (await h.worklink.store.taskMessages.forTask(h.teamId, task.taskId)).some(
        (m) => m.channelId === 'C_GENERAL' && m.ts === replyTs(answer),
      ),
    ).toBe(true);
    // The channel's feed has its own card of it, at the top of the channel.
    await feedCard(task.taskId);
  });
});
