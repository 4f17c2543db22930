/**
 * Channels choose what they hear (issue 22, section 2), through signed Slack requests against
 * the embedded service: `/work feed on [created] [done] [comments] [assigned] [changes]` with
 * filters `priority:high+`, `group:<name>`, `assignee:@person`; `/work feed` says it in one
 * line; two feeds of one project in two channels each keep their own; only matching tasks
 * and activity reach each channel; nonsense changes nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { findTask, linkChannel, shown } from '../tasks/helpers.js';
import { useFeedHarness } from './feed-harness.js';

const f = useFeedHarness();

async function replyTo(text: string, channelId = 'C_GENERAL', userId = f.h.users.alice.id) {
  const res = await f.h.slack.slashCommand(text, { channelId, userId });
  expect(res.status).toBe(200);
  return (await f.h.replyTo(res)).text ?? '';
}

const feedOf = (channel: string) => f.h.worklink.store.channelFeeds.get(f.h.teamId, channel);
const user = (first: string) => f.h.seed.users.find((u) => u.name.startsWith(first))!;
const inChannel = (channel: string) =>
  f.h.fake.callsOf('chat.postMessage').filter((c) => c.body.channel === channel);

describe('/work feed on with a choice', () => {
  beforeAll(async () => {
    await linkChannel(f.h, 0, 'C_SECOND');
  });

  it('stores each channel’s own choice and says it in one line', async () => {
    await f.h.slack.slashCommand('feed on created done priority:high+', {
      channelId: 'C_GENERAL',
    });
    await f.h.waitFor(async () => (await feedOf('C_GENERAL'))?.events.length === 2);
    await f.h.slack.slashCommand(`feed on comments assigned assignee:<@${f.h.users.bob.id}>`, {
      channelId: 'C_SECOND',
    });
    await f.h.waitFor(async () => (await feedOf('C_SECOND'))?.events.includes('comments'));
    expect(await feedOf('C_GENERAL')).toMatchObject({
      events: ['created', 'done'],
      filters: { priority: { level: 2, orMore: true } },
    });
    expect(await feedOf('C_SECOND')).toMatchObject({
      events: ['comments', 'assigned'],
      filters: { assignee: { serviceUserId: user('Bob').id, slackUserId: 'U_BOB' } },
    });
    const line = await replyTo('feed');
    expect(line).toContain('new tasks and completions, only of tasks priority high or more urgent');
    expect(line.split('\n')).toHaveLength(1);
    expect(await replyTo('feed', 'C_SECOND')).toContain(
      'comments and assignments, only of tasks assigned to <@U_BOB>',
    );
  });

  it('refuses what it cannot read and changes nothing', async () => {
    expect(await replyTo('feed on loudly')).toContain('`loudly` is not something a feed can hear');
    expect(await replyTo('feed on priority:extreme')).toContain('is not a priority');
    expect(await replyTo('feed on assignee:@nobody-at-all')).toMatch(/nothing was changed/i);
    expect(await feedOf('C_GENERAL')).toMatchObject({ events: ['created', 'done'] });
  });

  it('only matching new tasks get cards; each channel hears only what it chose', async () => {
    const bob = user('Bob').id;
    const high = await f.h.work.createTask({
      projectId: f.website,
      name: 'Urgent-ish fix',
      priority: 2,
      taskUsers: [bob],
    });
    const low = await f.h.work.createTask({
      projectId: f.website,
      name: 'Someday tidy-up',
      priority: 4,
      taskUsers: [bob],
    });
    const card = await f.feedCard(high.taskId);
    await f.settled();
    expect(f.posts('C_GENERAL', 'Urgent-ish fix')).toHaveLength(1);
    expect(f.posts('C_GENERAL', 'Someday tidy-up')).toEqual([]);
    // C_SECOND does not hear new tasks at all.
    expect(f.posts('C_SECOND', 'Urgent-ish fix')).toEqual([]);

    // A comment: C_GENERAL did not choose comments; C_SECOND did, for Bob's tasks, as a line.
    await f.h.slack.slashCommand(`comment ${low.taskId} Still someday`, {
      userId: f.h.users.carol.id,
    });
    const line = await f.h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.channel === 'C_SECOND' && shown(c.body).includes('Still someday'),
    );
    expect(line.body.thread_ts).toBeUndefined();
    expect(shown(line.body)).toContain('💬 <@U_CAROL> commented on *Someday tidy-up*');

    // Completion: C_GENERAL hears it in the card's thread; C_SECOND did not choose it.
    await f.h.slack.slashCommand(`done ${high.taskId}`, { userId: f.h.users.bob.id });
    await f.h.fake.waitForCall(
      'chat.postMessage',
      (c) => c.body.thread_ts === card.ts && shown(c.body).includes('✅ <@U_BOB> completed'),
    );
    await f.settled();
    expect(inChannel('C_GENERAL').filter((c) => shown(c.body).includes('commented'))).toEqual([]);
    expect(inChannel('C_SECOND').filter((c) => shown(c.body).includes('completed'))).toEqual([]);
  });

  it('a task not assigned to the filtered person is not told there', async () => {
    const task = await f.h.work.createTask({
      projectId: f.website,
      name: 'Carol only',
      taskUsers: [user('Carol').id],
    });
    await f.h.slack.slashCommand(`comment ${task.taskId} Not for Bob`);
    await f.h.waitFor(() => findTask(f.h, f.website, 'Carol only'));
    await f.settled();
    expect(inChannel('C_SECOND').filter((c) => shown(c.body).includes('Not for Bob'))).toEqual([]);
  });

  it('group filters by name; plain `/work feed on` keeps the choice', async () => {
    await f.h.slack.slashCommand('feed on created group:design', { channelId: 'C_GENERAL' });
    await f.h.waitFor(async () => (await feedOf('C_GENERAL'))?.filters.group === 'design');
    const [design, build] = f.h.seed.projects[0].groups;
    const a = await f.h.work.createTask({
      projectId: f.website,
      name: 'In design',
      groupId: design!.groupId,
    });
    await f.h.work.createTask({ projectId: f.website, name: 'In build', groupId: build!.groupId });
    await f.feedCard(a.taskId);
    await f.settled();
    expect(f.posts('C_GENERAL', 'In build')).toEqual([]);
    expect(await replyTo('feed on')).toContain('already on');
    expect((await feedOf('C_GENERAL'))?.filters).toEqual({ group: 'design' });
  });
});
